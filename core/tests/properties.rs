//! Invariants that hold after every operation of any sequence, under any config.

use std::collections::BTreeSet;

use evodb_core::{AddRequest, Config, Database, InspirationScope, Metrics, MigrationMode, Placement};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Add { score: u8, parent: u8, code: u8, tick: u8 },
    Sample,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (any::<u8>(), any::<u8>(), 0u8..6, 0u8..3).prop_map(|(score, parent, code, tick)| Op::Add { score, parent, code, tick }),
        1 => Just(Op::Sample),
    ]
}

fn config() -> impl Strategy<Value = Config> {
    (1u32..5, 1u32..7, 1u64..5, 0.0f64..=1.0, 0.0f64..=1.0, any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(islands, capacity, interval, rate, exploration, parent_placement, copy, all_islands)| Config {
            num_islands: islands,
            max_island_size: capacity,
            migration_interval: interval,
            migration_rate: rate,
            exploration_ratio: exploration,
            placement: if parent_placement { Placement::ParentIsland } else { Placement::RoundRobin },
            migration: if copy { MigrationMode::Copy } else { MigrationMode::Share },
            inspiration_scope: if all_islands { InspirationScope::AllIslands } else { InspirationScope::Island },
            ..Config::default()
        },
    )
}

fn check_invariants(db: &Database, adds: u64) -> Result<(), TestCaseError> {
    let config = db.config();
    let live: BTreeSet<&str> = db.programs().map(|p| &*p.id).collect();
    prop_assert_eq!(live.len(), db.len(), "ids are unique");
    let mut on_some_island = BTreeSet::new();
    for island in 0..config.num_islands {
        let members = db.island_members(island);
        prop_assert!(members.len() <= config.max_island_size as usize, "island {} over capacity", island);
        for id in members {
            prop_assert!(live.contains(id), "island {} lists dead id {}", island, id);
            on_some_island.insert(id);
        }
    }
    prop_assert_eq!(&on_some_island, &live, "every live program is on an island");
    prop_assert_eq!(db.last_iteration(), adds);
    if let Some(best) = db.best_id() {
        let best_fitness = db.fitness(best).unwrap();
        for id in &live {
            prop_assert!(db.fitness(id).unwrap() <= best_fitness, "{} beats the best {}", id, best);
        }
    } else {
        prop_assert!(live.is_empty());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold_after_every_op(config in config(), ops in proptest::collection::vec(op(), 1..80), seed in 0..=evodb_core::MAX_SEED) {
        let mut db = Database::new(config, seed).unwrap();
        let mut adds = 0;
        let mut clock = 0.0;
        for op in ops {
            match op {
                Op::Sample => {
                    let sample = db.sample();
                    if let Some(parent) = &sample.parent {
                        prop_assert!(db.program(&parent.id).is_some());
                        prop_assert!(sample.inspirations.iter().all(|i| i.id != parent.id));
                    }
                }
                Op::Add { score, parent, code, tick } => {
                    let ids: Vec<String> = db.programs().map(|p| p.id.to_string()).collect();
                    let parent_id = if ids.is_empty() || parent % 5 == 0 { "0".to_string() } else { ids[parent as usize % ids.len()].clone() };
                    clock += f64::from(tick); // repeated timestamps exercise the tie rules
                    let request = AddRequest {
                        id: None,
                        code_path: "/c.py".into(),
                        target_code: format!("v{code}"),
                        parent_id,
                        metrics: Metrics::new([("score", f64::from(score % 8) / 8.0)]).unwrap(),
                        changes: String::new(),
                        island: None,
                        ..AddRequest::seed("", "", Metrics::default())
                    };
                    db.add(request, clock).unwrap();
                    adds += 1;
                }
            }
            check_invariants(&db, adds)?;
        }
        let text = db.to_json();
        prop_assert_eq!(Database::from_json(&text).unwrap().to_json(), text);
    }
}
