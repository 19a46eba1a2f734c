//! `validate`: every broken invariant of a `database.json`, not just the first a load trips on.

use std::collections::{BTreeMap, BTreeSet};

use crate::api::ROOT_PARENT_ID;
use crate::config::Config;
use crate::config::fitness_of;
use crate::database::Database;
use crate::format::invariants::{candidate_problems, island_problems, listed_ids, program_problems};
use crate::format::persistence::{parse_stored, restore};
use crate::format::stored::StoredDatabase;

impl Database {
    /// Checks a `database.json` text and lists every problem found (empty: the file is sound).
    /// A text that is not JSON, or not shaped like a database, is one problem; past that, each
    /// invariant is checked on its own: program keys and ids, island lists (dangling, repeated,
    /// over capacity), programs on no island, the best program, generations against parents,
    /// iteration numbers, `seq` numbers, feature cells, plan items, and finally a full load.
    ///
    /// ```
    /// use evodb_core::{Config, Database};
    /// let text = Database::new(Config::default(), 1).unwrap().to_json();
    /// assert!(Database::validate_json(&text).is_empty());
    /// let broken = text.replace("\"currentIsland\": 0", "\"currentIsland\": 9");
    /// assert_eq!(Database::validate_json(&broken).len(), 1);
    /// ```
    pub fn validate_json(text: &str) -> Vec<String> {
        let stored = match parse_stored(text) {
            Ok(stored) => stored,
            Err(e) => return vec![e.to_string()],
        };
        let mut problems = check_invariants(&stored);
        if problems.is_empty()
            && let Err(e) = restore(stored)
        {
            problems.push(e.to_string());
        }
        problems
    }
}

/// The structural invariants a load checks, then what a load tolerates but a sound file never
/// holds.
fn check_invariants(db: &StoredDatabase) -> Vec<String> {
    let config = db.evodb.as_ref().map(|ext| ext.config.clone()).unwrap_or_default();
    let mut problems = island_problems(db);
    let listed = listed_ids(db);
    let mut problem = |text: String| problems.push(text);
    let capacity = db.max_island_size.unwrap_or(config.max_island_size) as usize;

    let max_generation = db.island_generations.iter().copied().max().unwrap_or(0);
    if db.last_migration_generation > max_generation {
        problem(format!(
            "`lastMigrationGeneration` is {} but no island has reached that generation (highest {max_generation})",
            db.last_migration_generation
        ));
    }

    let mut on_islands: BTreeSet<&str> = BTreeSet::new();
    for (i, ids) in db.islands.iter().enumerate() {
        let mut seen = BTreeSet::new();
        for id in ids {
            if !db.programs.contains_key(id) {
                problem(format!("`islands[{i}]` lists `{id}`, which is not in `programs`"));
            }
            if !seen.insert(id.as_str()) {
                problem(format!("`islands[{i}]` lists `{id}` more than once"));
            }
            on_islands.insert(id);
        }
        if ids.len() > capacity {
            problem(format!("`islands[{i}]` holds {} programs, over `maxIslandSize` {capacity}", ids.len()));
        }
    }

    let fitness: BTreeMap<&str, f64> = db
        .programs
        .iter()
        .filter_map(|(key, p)| fitness_of(&config, &p.metrics).ok().map(|f| (key.as_str(), f)))
        .collect();
    let mut seqs: BTreeMap<u64, &str> = BTreeMap::new();
    for (key, p) in &db.programs {
        program_problems(db, &config, &listed, key, p).into_iter().for_each(&mut problem);
        if let Err(e) = fitness_of(&config, &p.metrics) {
            problem(format!("program `{key}`: {e}"));
        }
        if p.iteration_found >= db.last_iteration {
            problem(format!(
                "program `{key}` has `iterationFound` {} but `lastIteration` is {}",
                p.iteration_found, db.last_iteration
            ));
        }
        if p.parent_id != ROOT_PARENT_ID
            && let Some(parent) = db.programs.get(&p.parent_id)
            && p.generation != parent.generation + 1
        {
            problem(format!(
                "program `{key}` has generation {} but its parent `{}` has generation {}",
                p.generation, p.parent_id, parent.generation
            ));
        }
        if let (seq, None) = (p.seq.unwrap_or(p.iteration_found + 1), &p.migrated_from)
            && let Some(other) = seqs.insert(seq, key)
        {
            problem(format!("programs `{other}` and `{key}` share `seq` {seq}"));
        }
        check_cell(&config, key, p.cell.as_deref(), &mut problem);
    }

    match fitness.get(db.best_program_id.as_str()) {
        None if !db.programs.is_empty() => {
            problem(format!("`bestProgramId` `{}` is not in `programs`", db.best_program_id));
        }
        Some(&best) => {
            if let Some((better, _)) = fitness.iter().find(|&(_, &f)| f > best) {
                problem(format!("`bestProgramId` is `{}` but `{better}` has a higher fitness", db.best_program_id));
            }
        }
        None => {}
    }

    problems.extend(candidate_problems(db));
    problems
}

/// A load drops such a cell (a cell that does not fit the dimensions is structural).
fn check_cell(config: &Config, key: &str, cell: Option<&[u32]>, problem: &mut impl FnMut(String)) {
    if config.features.is_empty() && cell.is_some() {
        problem(format!("program `{key}` has a `cell` but no feature dimensions are configured"));
    }
}
