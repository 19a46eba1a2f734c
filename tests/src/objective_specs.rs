//! Issue 42 (several objectives): pareto dominance and ties, the first front through pruning,
//! lexicographic order with tolerances, per-instance scores (GEPA's instance front), and the
//! bad inputs a selection refuses.

use serde_json::{Value, json};

use crate::Vector;
use crate::specs::{T0, add, op, req, samples, then, vector, with};

/// A candidate measured on speed and accuracy.
fn kernel(id: &str, parent: &str, speed: f64, accuracy: f64) -> Value {
    with(req(id, parent, 0.0), "metrics", json!({"speed": speed, "accuracy": accuracy}))
}

fn adds(points: &[(&str, f64, f64)]) -> Vec<Value> {
    points
        .iter()
        .enumerate()
        .map(|(i, (id, speed, accuracy))| add(kernel(id, "0", *speed, *accuracy), T0 + i as f64))
        .collect()
}

/// A candidate scored per test: its fitness the mean, its instance scores each test's.
fn tested(id: &str, parent: &str, tests: &[f64]) -> Value {
    let mean = tests.iter().sum::<f64>() / tests.len() as f64;
    let scores: serde_json::Map<String, Value> =
        tests.iter().enumerate().map(|(i, score)| (format!("test_{i}"), json!(score))).collect();
    with(req(id, parent, mean), "instanceScores", Value::Object(scores))
}

pub(crate) fn all() -> Vec<Vector> {
    let pareto = |extra: Value| {
        let mut config = json!({"numIslands": 1, "selection": {"mode": "pareto", "objectives": ["speed", "accuracy"],
            "reference": {"speed": 0, "accuracy": 0}}});
        for (k, v) in extra.as_object().unwrap() {
            config[k] = v.clone();
        }
        config
    };
    vec![
        vector(
            "pareto-dominance-and-ties",
            "pareto over speed and accuracy: a program better on both dominates; equal objectives tie and both stay \
             on the front; best is the first-front member with the best fitness; exploitation samples the front",
            pareto(json!({"explorationRatio": 0})),
            then(
                adds(&[("slow-exact", 1.0, 0.99), ("fast-rough", 3.0, 0.6), ("worse", 0.9, 0.5), ("twin", 3.0, 0.6)]),
                then(samples(4), [op("best"), op("stats"), op("reload"), op("best"), op("sample")]),
            ),
        ),
        vector(
            "pareto-front-survives-pruning",
            "an island of capacity 3: each eviction takes the dominated member lowest in the fitness order, never a \
             first-front member while a dominated one remains; an island that is all front loses its least crowded",
            pareto(json!({"maxIslandSize": 3})),
            then(
                adds(&[
                    ("a", 1.0, 0.9),
                    ("b", 2.0, 0.8),
                    ("d1", 0.5, 0.5),
                    ("c", 3.0, 0.2),
                    ("d2", 0.4, 0.1),
                    ("e", 2.5, 0.85),
                    ("f", 1.5, 0.95),
                ]),
                [op("snapshot"), op("best"), op("stats")],
            ),
        ),
        vector(
            "lexicographic-tolerances",
            "accuracy first with tolerance 0.05, then speed: accuracies within 0.05 of the best tie and the faster \
             wins; a clearly less accurate program ranks last however fast; pruning at capacity 3 evicts it",
            json!({"numIslands": 1, "maxIslandSize": 3, "explorationRatio": 0, "exploitationTop": 1,
                "selection": {"mode": "lexicographic", "objectives": ["accuracy", "speed"], "tolerances": [0.05, 0]}}),
            then(
                adds(&[("exact", 1.0, 0.93), ("close", 5.0, 0.89), ("rough", 9.0, 0.80), ("mid", 2.0, 0.90)]),
                [op("best"), op("sample"), op("snapshot")],
            ),
        ),
        vector(
            "instance-front-keeps-specialists",
            "per-instance scores at capacity 3: a program that alone solves one test stays beside fitter ones while \
             programs best on nothing are evicted; the best is still the fittest; stats report each test's best \
             score and leader; exploitation samples the instance front",
            json!({"numIslands": 1, "maxIslandSize": 3, "explorationRatio": 0, "selection": {"mode": "instances"}}),
            then(
                [
                    ("generalist", &[1.0, 1.0, 0.0, 0.0][..]),
                    ("specialist", &[0.0, 0.0, 0.0, 1.0]),
                    ("middling", &[0.5, 0.5, 0.0, 0.5]),
                    ("better", &[1.0, 1.0, 1.0, 0.0]),
                    ("copycat", &[1.0, 1.0, 0.0, 0.0]),
                ]
                .into_iter()
                .enumerate()
                .map(|(i, (id, tests))| add(tested(id, "0", tests), T0 + i as f64))
                .collect::<Vec<_>>(),
                then(samples(3), [op("best"), op("stats"), op("reload"), op("snapshot")]),
            ),
        ),
        vector(
            "instances-need-scores",
            "an instances run refuses an add without instance scores, naming instanceScores, and changes nothing; \
             stats report the coverage of what was added",
            json!({"numIslands": 1, "selection": {"mode": "instances"}}),
            vec![
                add(tested("a", "0", &[1.0, 0.0]), T0),
                add(req("unscored", "a", 0.9), T0 + 1.0),
                add(tested("b", "a", &[0.0, 1.0]), T0 + 2.0),
                op("stats"),
                op("snapshot"),
            ],
        ),
        vector(
            "pareto-needs-two-objectives",
            "a pareto selection over one objective is refused at creation, naming selection.objectives",
            json!({"selection": {"mode": "pareto", "objectives": ["speed"]}}),
            vec![op("info")],
        ),
        vector(
            "selection-bad-input-changes-nothing",
            "an add without one of the objectives is refused, naming it, and changes nothing; a min objective \
             counts negated",
            json!({"numIslands": 1, "directions": {"speed": "min"},
                "selection": {"mode": "pareto", "objectives": ["speed", "accuracy"]}}),
            vec![
                add(kernel("a", "0", 2.0, 0.9), T0),
                add(with(req("no-accuracy", "a", 0.0), "metrics", json!({"speed": 1.0})), T0 + 1.0),
                add(kernel("faster", "a", 1.0, 0.9), T0 + 2.0),
                op("best"),
                op("snapshot"),
            ],
        ),
    ]
}
