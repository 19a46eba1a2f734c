//! `database.json`: read as the seed writes it, written as a superset the seed still reads.
//!
//! The seed's keys come first, in the seed's order and with the seed's types. evodb's own state
//! lives in one added key, `evodb` (format version, seed, PRNG state, full config), plus two
//! added program fields (`island`, `migratedFrom`). The seed's CLI ignores added keys and drops
//! them when it rewrites the file; evodb then carries on from the seed keys alone: default
//! options, home islands re-derived from the island lists, and the PRNG re-seeded from a hash of
//! the file's contents (`reseed_from_seed_keys`). The seed's five config keys are authoritative
//! over the copy inside `evodb.config`.

use std::sync::Arc;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use crate::api::MAX_NOTE_BYTES;
use crate::config::Config;
use crate::config::cell_of;
use crate::config::fitness_of;
use crate::counters;
use crate::database::CandidateLog;
use crate::database::Program;
use crate::database::{Database, MAX_SEED};
use crate::error::{Error, Result, parse_json};
use crate::format::invariants::structural_problems;
use crate::format::stored::{Extension, StoredDatabase, StoredProgram};
use crate::json_text::to_pretty_js;
use crate::rng::DetRng;

/// 2 added the candidate log, plan state and per-program `seq`/`status`/`operator`/`cell`;
/// format 1 files load as if their candidates were all accepted.
const FORMAT_VERSION: u32 = 2;

impl Database {
    /// The whole database as `database.json` text (2-space indented, JavaScript number format).
    pub fn to_json(&self) -> String {
        to_pretty_js(&StoredDatabaseRef(self))
    }

    /// Reads `database.json` text written by evodb or by the seed's CLI. A torn, truncated or
    /// ill-typed file is rejected with an error naming the problem and where it is.
    ///
    /// ```
    /// use evodb_core::{Config, Database};
    /// let db = Database::new(Config::default(), 1).unwrap();
    /// let again = Database::from_json(&db.to_json()).unwrap();
    /// assert_eq!(again.to_json(), db.to_json());
    /// assert!(Database::from_json(r#"{"numIslands": 3"#).is_err());
    /// ```
    pub fn from_json(text: &str) -> Result<Database> {
        restore(parse_stored(text)?)
    }
}

pub(crate) fn parse_stored(text: &str) -> Result<StoredDatabase> {
    parse_json(text).map_err(describe_parse_error)
}

/// Every stored counter within [`counters::MAX_COUNTER`].
fn check_counters(stored: &StoredDatabase) -> Result<()> {
    counters::check_stored("lastIteration", stored.last_iteration)?;
    counters::check_stored("lastMigrationGeneration", stored.last_migration_generation)?;
    for (i, generation) in stored.island_generations.iter().enumerate() {
        counters::check_stored(&format!("islandGenerations[{i}]"), *generation)?;
    }
    for (key, p) in &stored.programs {
        counters::check_stored(&format!("programs.{key}.generation"), p.generation)?;
        counters::check_stored(&format!("programs.{key}.iterationFound"), p.iteration_found)?;
        if let Some(seq) = p.seq {
            counters::check_stored(&format!("programs.{key}.seq"), seq)?;
        }
    }
    if let Some(log) = stored.evodb.as_ref().and_then(|ext| ext.candidates.as_ref()) {
        counters::check_stored("evodb.candidates.nextSeq", log.next_seq)?;
        counters::check_stored("evodb.candidates.evaluations", log.evaluations)?;
    }
    Ok(())
}

fn describe_parse_error((path, inner): (Option<String>, serde_json::Error)) -> Error {
    if inner.is_eof() {
        Error::corrupt(format!("the file ends early (torn or truncated write?): {inner}"))
    } else if inner.to_string().starts_with("trailing characters") {
        Error::corrupt(format!(
            "trailing content after the JSON value ({}): the file must hold one JSON object; remove what follows it",
            inner.to_string().trim_start_matches("trailing characters ")
        ))
    } else if inner.is_syntax() {
        Error::corrupt(format!("the file is not valid JSON: {inner}"))
    } else if let Some(path) = path {
        Error::corrupt(format!("`{path}` {inner}"))
    } else {
        Error::corrupt(format!("not a database.json: {inner}"))
    }
}

pub(crate) fn restore(stored: StoredDatabase) -> Result<Database> {
    check_counters(&stored)?;
    let (seed, rng, mut config) = match &stored.evodb {
        Some(ext) if ext.format == 0 => {
            return Err(Error::corrupt("`evodb.format` is 0; evodb writes format 1 or later"));
        }
        Some(ext) if ext.format > FORMAT_VERSION => {
            return Err(Error::corrupt(format!(
                "`evodb.format` is {}; this evodb reads format {FORMAT_VERSION} — upgrade evodb",
                ext.format
            )));
        }
        Some(ext) => (ext.seed, DetRng::from_state(&ext.rng)?, ext.config.clone()),
        None => {
            let seed = reseed_from_seed_keys(&stored);
            (seed, DetRng::from_seed(seed), Config::default())
        }
    };
    config.num_islands = stored.num_islands;
    config.max_island_size = stored.max_island_size.unwrap_or(config.max_island_size);
    config.migration_interval = stored.migration_interval;
    config.migration_rate = stored.migration_rate;
    config.exploration_ratio = stored.exploration_ratio.unwrap_or(config.exploration_ratio);
    config.validate()?;

    if let Some(problem) = structural_problems(&stored, &config).into_iter().next() {
        return Err(Error::corrupt(problem));
    }

    let mut db = Database::new(config, seed)?;
    db.newly_created = false;
    db.without_evodb_section = stored.evodb.is_none();
    db.rng = rng;
    for (key, p) in stored.programs {
        let fitness =
            fitness_of(&db.config, &p.metrics).map_err(|e| Error::corrupt(format!("`programs.{key}`: {e}")))?;
        let cell = restore_cell(&db.config, &key, &p)?;
        let program = Program {
            id: p.id.into(),
            code_path: p.code_path.into(),
            target_code: p.target_code.into(),
            parent_id: p.parent_id,
            generation: p.generation,
            iteration_found: p.iteration_found,
            timestamp: p.timestamp + 0.0,
            metrics: p.metrics,
            changes: p.changes.into(),
            island: p.island.unwrap_or(u32::MAX),
            migrated_from: p.migrated_from,
            // The seed numbers its candidates by `iterationFound` alone (it records no errors).
            seq_if_not_implied: p.seq.and_then(|seq| Program::implied_seq(p.iteration_found, seq)),
            status: p.status,
            reason: p.reason,
            operator: p.operator,
            second_parent_id: p.second_parent_id,
            cell,
            branch: p.branch.map(Arc::from),
            commit: p.commit.map(Arc::from),
            target: p.target.map(Arc::from),
            measurements_if_several: p.measurements.filter(|&n| n > 1),
            origin: p.origin,
            parents: p.parents,
            instance_scores: p.instance_scores,
            embedding: restore_embedding(&key, p.embedding)?,
        };
        let target = restore_target(&db.config, &key, &program)?;
        let objectives = db.config.selection.has_objectives().then(|| db.config.stored_objectives(&program.metrics));
        let slot = db.population.insert(program, fitness, target);
        if let Some(objectives) = objectives {
            db.population.set_objectives(slot, &objectives);
        }
    }
    // Like the seed's loader: ids of missing programs are dropped, repeats collapse (a Set).
    for (island, ids) in stored.islands.iter().enumerate() {
        for id in ids {
            if let Some(slot) = db.population.slot_of(id)
                && !db.population.is_on(slot, island as u32)
            {
                let record = db.population.get(slot);
                let (fitness, timestamp) = (record.fitness, record.program.timestamp);
                db.join_island(slot, island as u32, fitness, timestamp);
            }
        }
    }
    // A seed-written program has no home island: it is the first island that lists it.
    let unplaced: Vec<u32> =
        db.population.slots().filter(|&s| db.population.get(s).program.island == u32::MAX).collect();
    for slot in unplaced {
        let home = db.population.first_island(slot).expect("every program is on an island (structural_problems)");
        db.population.get_mut(slot).program.island = home;
    }

    db.current_island = stored.current_island;
    db.island_generations = stored.island_generations;
    db.last_migration_generation = stored.last_migration_generation;
    db.last_iteration = stored.last_iteration;
    let ext = stored.evodb.unwrap_or_else(|| Extension {
        format: 0,
        seed,
        rng: String::new(),
        config: Config::default(),
        candidates: None,
        rounds: 0,
        plan_cursor: 0,
        pending: Vec::new(),
        sampled: Vec::new(),
        in_flight: Vec::new(),
        pruned: Vec::new(),
        notes: Vec::new(),
        synergies: Vec::new(),
        idea_round_bests: Vec::new(),
    });
    // Files without a candidate log (the seed's, format 1) counted every candidate as an iteration.
    db.candidates = ext.candidates.unwrap_or_else(|| CandidateLog {
        next_seq: stored.last_iteration + 1,
        evaluations: stored.last_iteration,
        ..CandidateLog::default()
    });
    db.rounds = ext.rounds;
    db.idea_round_bests = ext.idea_round_bests;
    db.plan_cursor = ext.plan_cursor;
    db.pending = ext.pending;
    db.sampled = ext.sampled;
    db.in_flight = ext.in_flight;
    db.pruned = ext.pruned;
    if let Some((i, note)) = ext.notes.iter().enumerate().find(|(_, note)| note.text.len() > MAX_NOTE_BYTES) {
        return Err(Error::corrupt(format!(
            "`evodb.notes[{i}].text` is {} bytes; a note holds at most {MAX_NOTE_BYTES}",
            note.text.len()
        )));
    }
    db.notes = ext.notes;
    db.synergies = ext.synergies;
    // A missing or dangling best id (the seed can leave one) is replaced by the actual best.
    db.best = db.population.slot_of(&stored.best_program_id).or_else(|| db.best_overall());
    Ok(db)
}

/// In a several-target run every program names the target of its home island.
fn restore_target(config: &Config, key: &str, program: &Program) -> Result<crate::config::Scope> {
    if !config.has_targets() {
        return match &program.target {
            Some(t) => Err(Error::corrupt(format!(
                "`programs.{key}.target` is `{t}` but the config has no `targets`; restore `evodb.config.targets`"
            ))),
            None => Ok(None),
        };
    }
    let scope = match program.island {
        u32::MAX => None,
        island => config.target_of_island(island),
    };
    let expected = config.target_id(scope);
    if scope.is_none() || program.target.as_deref() != expected {
        return Err(Error::corrupt(format!(
            "`programs.{key}.target` is {:?} but its island {} belongs to target {expected:?}",
            program.target.as_deref(),
            program.island
        )));
    }
    Ok(scope)
}

/// A stored embedding is one `add --embedding` could have given.
fn restore_embedding(key: &str, embedding: Option<Vec<f64>>) -> Result<Option<Arc<[f64]>>> {
    let Some(embedding) = embedding else { return Ok(None) };
    crate::api::embedding_problem(&embedding)
        .map_err(|why| Error::corrupt(format!("`programs.{key}.embedding` {why}")))?;
    Ok(Some(embedding.into()))
}

/// A stored cell must fit the configured dimensions; a program stored before dimensions were
/// configured gets its cell computed.
fn restore_cell(config: &Config, key: &str, p: &StoredProgram) -> Result<Option<Vec<u32>>> {
    if config.features.is_empty() {
        return Ok(None);
    }
    // The cell follows from the metrics, the code and the island; a stored one must agree, or a
    // later migration copy would land in another cell than its original.
    let island = p.island.unwrap_or(0);
    let cell = cell_of(&config.features, &p.metrics, &p.target_code, island)
        .map_err(|e| Error::corrupt(format!("`programs.{key}`: {e}")))?;
    match &p.cell {
        Some(stored) if *stored != cell => Err(Error::corrupt(format!(
            "`programs.{key}.cell` is {stored:?} but its metrics and code place it in {cell:?}"
        ))),
        _ => Ok(Some(cell)),
    }
}

/// `reseed_from_seed_keys`: a seed derived (FNV-1a) from what the seed's CLI keeps, so a file it
/// rewrote resumes deterministically.
fn reseed_from_seed_keys(stored: &StoredDatabase) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01B3;
    let mut hash: u64 = 0xCBF2_9CE4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(PRIME);
        }
    };
    feed(&stored.last_iteration.to_le_bytes());
    feed(stored.best_program_id.as_bytes());
    for id in stored.programs.keys() {
        feed(id.as_bytes());
    }
    hash & MAX_SEED
}

/// The file's top level, in the seed's key order, borrowing from the database.
struct StoredDatabaseRef<'a>(&'a Database);

impl Serialize for StoredDatabaseRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let db = self.0;
        let c = &db.config;
        let mut map = serializer.serialize_map(Some(13))?;
        map.serialize_entry("numIslands", &c.num_islands)?;
        map.serialize_entry("maxIslandSize", &c.max_island_size)?;
        map.serialize_entry("migrationInterval", &c.migration_interval)?;
        map.serialize_entry("migrationRate", &c.migration_rate)?;
        map.serialize_entry("explorationRatio", &c.exploration_ratio)?;
        map.serialize_entry("programs", &ProgramsRef(db))?;
        map.serialize_entry("islands", &IslandsRef(db))?;
        map.serialize_entry("currentIsland", &db.current_island)?;
        map.serialize_entry("islandGenerations", &db.island_generations)?;
        map.serialize_entry("lastMigrationGeneration", &db.last_migration_generation)?;
        map.serialize_entry("bestProgramId", db.best_id().unwrap_or(""))?;
        map.serialize_entry("lastIteration", &db.last_iteration)?;
        let ext = Extension {
            format: FORMAT_VERSION,
            seed: db.seed,
            rng: db.rng.state(),
            config: c.clone(),
            candidates: Some(db.candidates.clone()),
            rounds: db.rounds,
            plan_cursor: db.plan_cursor,
            pending: db.pending.clone(),
            sampled: db.sampled.clone(),
            in_flight: db.in_flight.clone(),
            pruned: db.pruned.clone(),
            notes: db.notes.clone(),
            synergies: db.synergies.clone(),
            idea_round_bests: db.idea_round_bests.clone(),
        };
        map.serialize_entry("evodb", &ext)?;
        map.end()
    }
}

struct ProgramsRef<'a>(&'a Database);

impl Serialize for ProgramsRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for program in self.0.programs() {
            map.serialize_entry(&program.id, program)?;
        }
        map.end()
    }
}

struct IslandsRef<'a>(&'a Database);

impl Serialize for IslandsRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let db = self.0;
        let mut seq = serializer.serialize_seq(Some(db.islands.len()))?;
        for island in 0..db.islands.len() as u32 {
            seq.serialize_element(&db.island_members(island))?;
        }
        seq.end()
    }
}
