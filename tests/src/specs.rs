//! The inputs of every conformance vector: one per seed rule, edge case and option. `bless`
//! records the native core's results into `tests/vectors/`; the runners of every face replay
//! them. The rules themselves are checked by hand-computed tests in `core/tests/`.

use serde_json::{Value, json};

use crate::Vector;

pub(crate) const T0: f64 = 1_700_000_000.0;

pub(crate) fn req(id: &str, parent: &str, score: f64) -> Value {
    json!({
        "id": id,
        "codePath": format!("/run/candidates/{id}.py"),
        "targetCode": format!("def f():\n    return '{id}'\n"),
        "parentId": parent,
        "metrics": {"score": score},
        "changes": format!("made {id} from {parent}"),
    })
}

pub(crate) fn with(mut request: Value, key: &str, value: Value) -> Value {
    request[key] = value;
    request
}

pub(crate) fn without(mut request: Value, key: &str) -> Value {
    request.as_object_mut().unwrap().shift_remove(key);
    request
}

pub(crate) fn add(request: Value, now: f64) -> Value {
    json!({"op": "add", "now": now, "request": request})
}

pub(crate) fn op(name: &str) -> Value {
    json!({"op": name})
}

/// A deterministic score in [0, 1) with plenty of distinct values and some repeats.
pub(crate) fn score(i: usize) -> f64 {
    ((i * 37 + 11) % 100) as f64 / 100.0
}

/// The skill's loop: seed `p0`, then `n` rounds of sample + add, each child's parent an earlier
/// program (`p{i/2}`, which may have been pruned: then the add warns and uses generation 0).
pub(crate) fn evolve(n: usize, sample_every: usize) -> Vec<Value> {
    let mut ops = vec![add(req("p0", "0", score(0)), T0)];
    for i in 1..=n {
        if sample_every > 0 && i % sample_every == 0 {
            ops.push(op("sample"));
        }
        ops.push(add(req(&format!("p{i}"), &format!("p{}", i / 2), score(i)), T0 + i as f64));
    }
    ops
}

pub(crate) fn vector(name: &str, description: &str, config: Value, ops: Vec<Value>) -> Vector {
    Vector {
        name: name.into(),
        description: description.into(),
        seed: 7,
        config: Some(config),
        initial: None,
        initial_text: None,
        ops,
        expected: None,
    }
}

pub(crate) fn then(mut ops: Vec<Value>, more: impl IntoIterator<Item = Value>) -> Vec<Value> {
    ops.extend(more);
    ops
}

pub(crate) fn samples(n: usize) -> Vec<Value> {
    vec![op("sample"); n]
}

/// A small database as the seed's own CLI writes it: no `evodb` key, no program `island`.
pub(crate) fn seed_written_database() -> Value {
    let program = |id: &str, parent: &str, generation: u64, iteration: u64, score: f64| {
        json!({
            "id": id, "codePath": format!("/proj/{id}.js"), "targetCode": format!("function f() {{ return '{id}'; }}"),
            "parentId": parent, "generation": generation, "iterationFound": iteration,
            "timestamp": 1795291634.949 + iteration as f64, "metrics": {"benchmark-score": score, "efficiency-score": 0.5},
            "changes": format!("iteration {iteration}"),
        })
    };
    json!({
        "numIslands": 3, "maxIslandSize": 40, "migrationInterval": 10, "migrationRate": 0.1, "explorationRatio": 0.3,
        "programs": {
            "s-0": program("s-0", "0", 0, 0, 0.2),
            "s-1": program("s-1", "s-0", 1, 1, 0.6),
            "s-2": program("s-2", "s-0", 1, 2, 0.4),
            "s-3": program("s-3", "s-1", 2, 3, 0.9),
        },
        "islands": [["s-0", "s-3"], ["s-1"], ["s-2"]],
        "currentIsland": 1, "islandGenerations": [2, 1, 1], "lastMigrationGeneration": 0,
        "bestProgramId": "s-3", "lastIteration": 4,
    })
}

/// Every vector's inputs, in file order.
pub fn all() -> Vec<Vector> {
    let seed_req = json!({"codePath": "/proj/src/f.py", "targetCode": "def f():\n    return 0\n", "parentId": "0",
        "metrics": {"score": 0.25}, "changes": "initial implementation"});
    let mut torn = evodb_core::json_text::to_pretty_js(&seed_written_database());
    torn.truncate(torn.len() * 2 / 3);
    vec![
        vector(
            "empty-database",
            "sample, best and info on an empty database: null parent, null best, isEmpty",
            json!({}),
            vec![op("sample"), op("best"), op("info")],
        ),
        vector(
            "seed-then-sample",
            "the seed program (parentId 0, generated id) is the fallback parent of empty islands",
            json!({}),
            vec![add(seed_req.clone(), T0), op("info"), op("sample"), op("best"), op("sample"), op("sample")],
        ),
        vector(
            "round-robin-placement",
            "each add joins islands[currentIsland], which advances 0 → 1 → 2 → 0",
            json!({}),
            then(
                evolve(3, 0),
                [op("snapshot")].into_iter().chain(evolve(6, 0).into_iter().skip(4)).chain([op("info")]),
            ),
        ),
        vector(
            "generations",
            "generation = parent's + 1; iterationFound = lastIteration at the add",
            json!({}),
            vec![
                add(req("a", "0", 0.1), T0),
                add(req("b", "a", 0.2), T0 + 1.0),
                add(req("c", "b", 0.3), T0 + 2.0),
                add(req("d", "a", 0.4), T0 + 3.0),
                op("snapshot"),
            ],
        ),
        vector(
            "unknown-parent",
            "an unknown parent id is accepted with generation 0 and a warning",
            json!({}),
            vec![add(req("a", "0", 0.1), T0), add(req("b", "nope", 0.2), T0 + 1.0), add(req("c", "", 0.3), T0 + 2.0)],
        ),
        vector(
            "best-ties",
            "equal fitness: the newer timestamp wins; equal timestamps keep the older best",
            json!({}),
            vec![
                add(req("a", "0", 0.5), T0),
                add(req("b", "0", 0.5), T0 + 1.0),
                add(req("c", "0", 0.5), T0 + 1.0),
                op("best"),
                add(req("d", "0", 0.4), T0 + 9.0),
                op("best"),
                op("sample"),
                op("sample"),
            ],
        ),
        vector(
            "fitness-mean",
            "fitness is the mean of all metrics in order, 0 when there are none",
            json!({}),
            vec![
                add(with(req("a", "0", 0.0), "metrics", json!({"x": 0.9, "y": 0.1, "z": 0.2})), T0),
                add(with(req("b", "0", 0.0), "metrics", json!({})), T0 + 1.0),
                add(with(req("c", "0", 0.0), "metrics", json!({"x": -1, "y": 2})), T0 + 2.0),
                add(with(req("d", "0", 0.0), "metrics", json!({"x": 0.4})), T0 + 3.0),
                op("best"),
                op("info"),
            ],
        ),
        vector(
            "migration-not-yet",
            "27 adds: max(islandGenerations) − lastMigrationGeneration = 9 < 10, no migration",
            json!({}),
            evolve(26, 5),
        ),
        vector(
            "migration-at-interval",
            "the 28th add makes island 0's generation 10: migration happens exactly then",
            json!({}),
            then(evolve(27, 5), [op("sample")]),
        ),
        vector(
            "re-migration",
            "interval 3: migration repeats every 3 generations, already-present ids are not re-added",
            json!({"migrationInterval": 3, "migrationRate": 0.34}),
            then(evolve(24, 3), [op("snapshot")]),
        ),
        vector(
            "migration-rate",
            "rate 0.5 sends the best floor(size × 0.5) of each island to both neighbours",
            json!({"migrationInterval": 6, "migrationRate": 0.5}),
            evolve(30, 4),
        ),
        vector(
            "two-island-ring",
            "with two islands both neighbours are the same island; ids are never duplicated",
            json!({"numIslands": 2, "migrationInterval": 2, "migrationRate": 0.5}),
            evolve(12, 3),
        ),
        vector(
            "one-island",
            "one island: no ring, nothing migrates and the migration clock is not reset",
            json!({"numIslands": 1, "migrationInterval": 2}),
            then(evolve(8, 2), [op("snapshot")]),
        ),
        vector(
            "prune-deletes-unshared",
            "over capacity the worst goes; a program on no island is deleted",
            json!({"numIslands": 1, "maxIslandSize": 3}),
            then(evolve(8, 2), [op("info")]),
        ),
        vector(
            "prune-keeps-shared",
            "a shared program pruned from one island lives on while another holds it",
            json!({"numIslands": 2, "maxIslandSize": 3, "migrationInterval": 1}),
            vec![
                add(req("a", "0", 0.1), T0),
                add(req("b", "0", 0.5), T0 + 1.0),
                add(req("c", "0", 0.6), T0 + 2.0),
                op("snapshot"),
                add(req("d", "0", 0.7), T0 + 3.0),
            ],
        ),
        vector(
            "prune-new-program",
            "a new program worse than a full island is pruned at once; add still reports it",
            json!({"numIslands": 1, "maxIslandSize": 2}),
            vec![
                add(req("a", "0", 0.9), T0),
                add(req("b", "0", 0.8), T0 + 1.0),
                add(req("c", "a", 0.1), T0 + 2.0),
                op("info"),
                add(req("d", "c", 0.95), T0 + 3.0),
            ],
        ),
        vector(
            "inspirations-few",
            "fewer than 5 programs: inspirations come from the top pool only, minus the parent",
            json!({"numIslands": 1}),
            then(evolve(3, 0), samples(6)),
        ),
        vector(
            "inspirations-large-island",
            "3 inspirations from the shuffled top 5 plus 2 from the rest of the island",
            json!({"numIslands": 1}),
            then(evolve(24, 0), samples(8)),
        ),
        vector(
            "exploration-always",
            "explorationRatio 1: the parent is a uniform pick from the whole island",
            json!({"numIslands": 1, "explorationRatio": 1.0}),
            then(evolve(12, 0), samples(8)),
        ),
        vector(
            "exploitation-only",
            "explorationRatio 0: the parent is always one of the island's top 3",
            json!({"numIslands": 1, "explorationRatio": 0.0}),
            then(evolve(12, 0), samples(8)),
        ),
        vector(
            "bad-adds-change-nothing",
            "duplicate ids, empty code or path and bad islands are errors; state is untouched",
            json!({}),
            vec![
                add(req("a", "0", 0.5), T0),
                add(req("a", "0", 0.6), T0 + 1.0),
                add(with(req("b", "0", 0.6), "targetCode", json!("  ")), T0 + 1.0),
                add(with(req("b", "0", 0.6), "codePath", json!("")), T0 + 1.0),
                add(with(req("b", "0", 0.6), "island", json!(3)), T0 + 1.0),
                op("info"),
            ],
        ),
        vector(
            "generated-ids",
            "without caller ids, ids are UUID-shaped and drawn from the seeded PRNG",
            json!({}),
            (0..6).map(|i| add(without(req("x", "0", score(i)), "id"), T0 + i as f64)).chain(samples(2)).collect(),
        ),
        vector(
            "placement-parent-island",
            "children join their parent's home island; sampling still rotates",
            json!({"placement": "parentIsland"}),
            then(evolve(14, 2), [op("snapshot")]),
        ),
        vector(
            "placement-explicit",
            "explicit placement: the island is required and range-checked",
            json!({"placement": "explicit"}),
            vec![
                add(req("a", "0", 0.5), T0),
                add(with(req("a", "0", 0.5), "island", json!(2)), T0),
                add(with(req("b", "a", 0.6), "island", json!(2)), T0 + 1.0),
                add(with(req("c", "a", 0.7), "island", json!(9)), T0 + 2.0),
                op("sample"),
                op("sample"),
                op("sample"),
            ],
        ),
        vector(
            "migration-copy",
            "copy mode: new ids with migratedFrom; migrants never migrate again; no duplicate code",
            json!({"migration": "copy", "migrationInterval": 2, "migrationRate": 0.5}),
            then(evolve(12, 3), [op("snapshot")]),
        ),
        vector(
            "inspirations-all-islands",
            "the seed prose's variant: inspirations drawn from every island",
            json!({"inspirationScope": "allIslands"}),
            then(evolve(15, 0), samples(6)),
        ),
        vector(
            "fitness-primary",
            "fitness is one named metric; a program without it is rejected",
            json!({"fitness": {"kind": "primary", "metric": "speed"}}),
            vec![
                add(with(req("a", "0", 0.0), "metrics", json!({"score": 0.9, "speed": 0.1})), T0),
                add(with(req("b", "0", 0.0), "metrics", json!({"score": 0.1, "speed": 0.8})), T0 + 1.0),
                add(with(req("c", "0", 0.0), "metrics", json!({"score": 1.0})), T0 + 2.0),
                op("best"),
            ],
        ),
        vector(
            "fitness-weighted-min",
            "weighted fitness with a minimised metric (latency counts negated)",
            json!({"fitness": {"kind": "weighted", "weights": {"score": 1.0, "latency": 0.1}}, "directions": {"latency": "min"}}),
            vec![
                add(with(req("a", "0", 0.0), "metrics", json!({"score": 0.9, "latency": 5.0})), T0),
                add(with(req("b", "0", 0.0), "metrics", json!({"score": 0.7, "latency": 1.0})), T0 + 1.0),
                add(with(req("c", "0", 0.0), "metrics", json!({"score": 0.95, "latency": 9.0})), T0 + 2.0),
                op("best"),
                op("sample"),
            ],
        ),
        vector(
            "reload-mid-run",
            "save and reload between operations changes nothing: the PRNG state is in the file",
            json!({"maxIslandSize": 5, "migrationInterval": 3}),
            evolve(20, 2)
                .into_iter()
                .enumerate()
                .flat_map(|(i, o)| if i % 4 == 3 { vec![o, op("reload")] } else { vec![o] })
                .collect(),
        ),
        Vector {
            initial: Some(seed_written_database()),
            config: None,
            ..vector(
                "seed-file-continue",
                "a file written by the seed's CLI loads as is and evolution continues",
                json!({}),
                vec![
                    op("info"),
                    op("sample"),
                    op("best"),
                    add(req("n1", "s-3", 0.95), T0),
                    add(req("n2", "s-1", 0.3), T0 + 1.0),
                    op("sample"),
                    add(req("n3", "n1", 0.5), T0 + 2.0),
                    op("snapshot"),
                ],
            )
        },
        vector(
            "invalid-config",
            "an empty config value is rejected before anything is created",
            json!({"numIslands": 0}),
            vec![op("info")],
        ),
        Vector {
            initial_text: Some(torn),
            config: None,
            ..vector("torn-file", "a truncated database.json is rejected as corrupt", json!({}), vec![op("info")])
        },
        vector(
            "long-run",
            "130 rounds with seed defaults: migrations, pruning at capacity 40, deletions",
            json!({}),
            then(evolve(130, 2), [op("best"), op("info")]),
        ),
        vector(
            "stats",
            "stats on an empty database, after the seed, and over a pruned run with a min-direction metric",
            json!({"maxIslandSize": 5, "directions": {"score": "min"}}),
            then(
                vec![op("stats")],
                evolve(20, 0)
                    .into_iter()
                    .enumerate()
                    .flat_map(|(i, add)| if i % 7 == 0 { vec![add, op("stats")] } else { vec![add] }),
            ),
        ),
    ]
    .into_iter()
    .chain(crate::engine_specs::all())
    .chain(crate::memory_specs::all())
    .chain(crate::target_specs::all())
    .chain(crate::engine_specs::sampled_placement())
    .chain(crate::engine_specs::pruned_retry())
    .chain(crate::engine_specs::noise_margin())
    .chain(crate::engine_specs::remeasure())
    .chain(crate::worker_specs::decide())
    .chain(crate::worker_specs::admission_and_cost())
    .chain(crate::idea_specs::all())
    .chain(crate::worker_specs::in_flight())
    .chain(crate::worker_specs::operator_policy())
    .chain(crate::objective_specs::all())
    .chain(crate::worker_specs::leases_vectors())
    .chain(crate::worker_specs::admission_by_embedding())
    .collect()
}
