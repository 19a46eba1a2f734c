//! The invariants of a `database.json` that a load refuses a file for, checked in one place:
//! `restore` stops at the first, `validate` lists them all (and adds what a load tolerates, such
//! as a dangling `bestProgramId`, which the seed's files can hold).

use std::collections::BTreeSet;

use crate::api::{Status, branch_problem, commit_problem};
use crate::config::{Config, cell_fits};
use crate::format::stored::{StoredDatabase, StoredProgram};

/// Every broken structural invariant of `db`, in file order, each a sentence naming the field.
/// `config` is the database's config as the load reconstructs it.
pub(crate) fn structural_problems(db: &StoredDatabase, config: &Config) -> Vec<String> {
    let mut problems = island_problems(db);
    let listed = listed_ids(db);
    for (key, p) in &db.programs {
        problems.extend(program_problems(db, config, &listed, key, p));
    }
    problems.extend(candidate_problems(db));
    problems
}

/// Ids some island lists.
pub(crate) fn listed_ids(db: &StoredDatabase) -> BTreeSet<&str> {
    db.islands.iter().flatten().map(String::as_str).collect()
}

/// The island lists and counters agree with `numIslands`.
pub(crate) fn island_problems(db: &StoredDatabase) -> Vec<String> {
    let mut problems = Vec::new();
    let n = db.num_islands as usize;
    for (field, len) in [("islands", db.islands.len()), ("islandGenerations", db.island_generations.len())] {
        if len != n {
            problems.push(format!("`{field}` has {len} entries but `numIslands` is {n}"));
        }
    }
    if db.current_island as usize >= n.max(1) {
        problems.push(format!("`currentIsland` is {} but islands are 0..{}", db.current_island, n.saturating_sub(1)));
    }
    problems
}

/// One stored program: its id is its key, its island exists, it is no error candidate, some
/// island lists it, its cell fits the dimensions.
pub(crate) fn program_problems(
    db: &StoredDatabase,
    config: &Config,
    listed: &BTreeSet<&str>,
    key: &str,
    p: &StoredProgram,
) -> Vec<String> {
    let mut problems = Vec::new();
    let n = db.num_islands as usize;
    if p.id != key {
        problems.push(format!("`programs.{key}.id` is `{}`; it must equal its key", p.id));
    }
    if let Some(island) = p.island
        && island as usize >= n
    {
        problems.push(format!("`programs.{key}.island` is {island} but islands are 0..{}", n.saturating_sub(1)));
    }
    // Git mode hands these to `git`: what `add` refuses, a load refuses (see `git_names`).
    if let Some(why) = p.commit.as_deref().and_then(commit_problem) {
        problems.push(format!("`programs.{key}.commit` {why}"));
    }
    if let Some(why) = p.branch.as_deref().and_then(branch_problem) {
        problems.push(format!("`programs.{key}.branch` {why}"));
    }
    if p.status == Status::Error {
        problems.push(format!("`programs.{key}.status` is `error`; error candidates are never stored as programs"));
    }
    // The seed deletes a program that no island lists, so its files never hold one; keeping it
    // would write a file that fails `validate`, and dropping it would lose it silently.
    if !listed.contains(key) {
        problems.push(format!("program `{key}` is in `programs` but on no island (`islands` does not list it)"));
    }
    if let Some(cell) = &p.cell
        && !config.features.is_empty()
        && !cell_fits(&config.features, config.num_islands, cell)
    {
        problems.push(format!("`programs.{key}.cell` {cell:?} does not fit the configured feature dimensions"));
    }
    problems
}

/// Candidate numbering and plan items.
pub(crate) fn candidate_problems(db: &StoredDatabase) -> Vec<String> {
    let mut problems = Vec::new();
    let n = db.num_islands as usize;
    // Candidates are numbered in order: a `seq` at or past the next number would be handed out
    // again. Files without a candidate log (the seed's) number the next `lastIteration + 1`.
    let candidates = db.evodb.as_ref().and_then(|ext| ext.candidates.as_ref());
    let next_seq = candidates.map_or(db.last_iteration.saturating_add(1), |log| log.next_seq);
    if let Some((key, seq)) =
        db.programs.iter().map(|(key, p)| (key, p.seq.unwrap_or(p.iteration_found + 1))).max_by_key(|&(_, seq)| seq)
        && seq >= next_seq
    {
        problems.push(format!("program `{key}` has `seq` {seq} but the next candidate is numbered {next_seq}"));
    }
    if let Some(ext) = &db.evodb {
        for item in &ext.pending {
            if let Some(held) = &item.held
                && held.request.plan_item.as_deref() != Some(item.name.as_str())
            {
                problems.push(format!("plan item `{}` holds an answer to another item", item.name));
            }
            if let Some(held) = &item.held {
                let request = &held.request;
                let git = [
                    ("commit", request.commit.as_deref().and_then(commit_problem)),
                    ("branch", request.branch.as_deref().and_then(branch_problem)),
                ];
                for (field, why) in git {
                    if let Some(why) = why {
                        problems.push(format!("plan item `{}` holds an answer whose `{field}` {why}", item.name));
                    }
                }
            }
            if item.island as usize >= n {
                problems.push(format!(
                    "plan item `{}` targets island {} but islands are 0..{}",
                    item.name,
                    item.island,
                    n.saturating_sub(1)
                ));
            }
        }
        for (i, item) in ext.sampled.iter().enumerate() {
            if item.island as usize >= n {
                problems.push(format!(
                    "`evodb.sampled[{i}]` (parent `{}`) names island {} but islands are 0..{}",
                    item.parent_id,
                    item.island,
                    n.saturating_sub(1)
                ));
            }
        }
        if ext.pruned.len() > crate::rules::MAX_PRUNED {
            problems.push(format!(
                "`evodb.pruned` holds {} programs; evodb keeps at most {}",
                ext.pruned.len(),
                crate::rules::MAX_PRUNED
            ));
        }
        if ext.sampled.len() > crate::rules::MAX_SAMPLED {
            problems.push(format!(
                "`evodb.sampled` holds {} samples; evodb keeps at most {}",
                ext.sampled.len(),
                crate::rules::MAX_SAMPLED
            ));
        }
        for (i, entry) in ext.in_flight.iter().enumerate() {
            if entry.island as usize >= n {
                problems.push(format!(
                    "`evodb.inFlight[{i}]` (parent `{}`) names island {} but islands are 0..{}",
                    entry.parent_id,
                    entry.island,
                    n.saturating_sub(1)
                ));
            }
        }
        if ext.in_flight.len() > crate::rules::MAX_IN_FLIGHT {
            problems.push(format!(
                "`evodb.inFlight` holds {} entries; evodb keeps at most {}",
                ext.in_flight.len(),
                crate::rules::MAX_IN_FLIGHT
            ));
        }
    }
    problems
}
