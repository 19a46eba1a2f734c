//! Issue 41: the adaptive operator policy (`operatorPolicy: "ucb"`). Its choices follow the
//! improvement counts, so a whole run replays byte for byte from its history; every operator is
//! tried; an operator weighted 0 is never chosen; and `ucb` without the operators is refused.

use evodb_core::simulation::{Landscape, Simulation};
use evodb_core::{Config, Database, Event};

fn simulate(config: &str, steps: u32) -> (Simulation, Vec<Event>) {
    let config = Config::from_json(config).unwrap();
    let mut sim = Simulation::new(config, 11, Landscape { terms: 4, ruggedness: 0.3 }).unwrap();
    for _ in 0..steps {
        sim.step().unwrap();
    }
    let events = sim.take_events();
    (sim, events)
}

fn operators_used(events: &[Event]) -> std::collections::BTreeSet<String> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::Sampled { operator: Some(operator), .. } => Some(format!("{operator:?}")),
            _ => None,
        })
        .collect()
}

#[test]
fn a_ucb_run_replays_and_tries_every_operator() {
    let (sim, events) = simulate(r#"{"numIslands": 3, "operators": {}, "operatorPolicy": "ucb"}"#, 200);
    let replayed = Database::replay(&events).unwrap();
    assert_eq!(replayed.to_json(), sim.database().to_json());
    assert_eq!(operators_used(&events).len(), 4, "{:?}", operators_used(&events));
}

#[test]
fn an_operator_weighted_zero_is_never_chosen() {
    let config = r#"{"numIslands": 3, "operators": {"exploitation": 0.5, "exploration": 0.3, "crossover": 0.2, "migration": 0},
        "operatorPolicy": "ucb"}"#;
    let (_, events) = simulate(config, 150);
    assert!(!operators_used(&events).contains("Migration"));
}

#[test]
fn ucb_needs_the_operators() {
    let error = Config::from_json(r#"{"operatorPolicy": "ucb"}"#).unwrap_err().to_string();
    assert!(error.contains("operatorPolicy") && error.contains("operators"), "{error}");
}
