//! The database's operations on a session, typed: a command asks `session.sample(target)` and
//! gets the core's `Sample`; the component's calls, the WIT records and wasmtime stay here.
//! Reads save nothing; writes save the database with their events when they succeed.

use evodb_core::{
    AddOutcome, AddRequest, Admission, BestProgram, ExportFormat, Info, Lease, LeaseEntry, Lineage, Note, NoteKind,
    NoteRequest, Plan, RemeasureRequest, Remeasured, Sample, Stats, StopVerdict,
};
use evodb_host::bridge::{core, wit};
use evodb_host::population;

use crate::failure::Failure;
use crate::session::{Session, ok};

impl Session<'_> {
    pub fn info(&mut self) -> Result<Info, Failure> {
        self.read(|m, st, db| ok(m.call_info(st, db))).map(core)
    }

    /// `info`, saving a new database where there was none (`create`).
    pub fn create(&mut self) -> Result<Info, Failure> {
        self.write(|m, st, db| ok(m.call_info(st, db))).map(core)
    }

    pub fn stats(&mut self) -> Result<Stats, Failure> {
        self.read(|m, st, db| ok(m.call_stats(st, db))).map(core)
    }

    pub fn best(&mut self, target: Option<&str>) -> Result<Option<BestProgram>, Failure> {
        match target {
            None => self.read(|m, st, db| ok(m.call_best(st, db))).map(core),
            Some(_) => self.read(|m, st, db| m.call_best_for(st, db, target)).map(core),
        }
    }

    pub fn should_stop(&mut self, target: Option<&str>) -> Result<StopVerdict, Failure> {
        self.read(|m, st, db| m.call_should_stop_for(st, db, target)).map(core)
    }

    /// Whether `code` duplicates or nearly duplicates a live program; reads only.
    pub fn admit(&mut self, code: &str, code_path: &str) -> Result<Admission, Failure> {
        self.read(|m, st, db| ok(m.call_admit(st, db, code, code_path))).map(core)
    }

    /// `admit` by the caller's embedding of the code.
    pub fn admit_embedding(&mut self, code: &str, code_path: &str, embedding: &[f64]) -> Result<Admission, Failure> {
        self.read(|m, st, db| m.call_admit_embedding(st, db, code, code_path, embedding)).map(core)
    }

    pub fn lineage(&mut self, id: &str) -> Result<Option<Lineage>, Failure> {
        self.read(|m, st, db| ok(m.call_lineage(st, db, id))).map(core)
    }

    pub fn export(&mut self, format: ExportFormat) -> Result<String, Failure> {
        let format: population::ExportFormat = wit(format);
        self.read(|m, st, db| ok(m.call_export(st, db, format)))
    }

    pub fn notes(
        &mut self,
        target: Option<&str>,
        kind: Option<NoteKind>,
        limit: Option<u32>,
    ) -> Result<Vec<Note>, Failure> {
        let kind: Option<population::NoteKind> = kind.map(wit);
        self.read(|m, st, db| ok(m.call_notes(st, db, target, kind, limit))).map(core)
    }

    /// A parent and inspirations, drawn (`demo`, `prompt`); saved, since the PRNG moved.
    pub fn sample(&mut self) -> Result<Sample, Failure> {
        self.write(|m, st, db| ok(m.call_sample(st, db))).map(core)
    }

    /// A parent and inspirations (or an expired leased item handed out again) at `now`
    /// (seconds since the epoch); saved, since the PRNG or a lease moved.
    pub fn sample_at(&mut self, target: Option<&str>, now: f64) -> Result<Sample, Failure> {
        self.write(|m, st, db| m.call_sample_at(st, db, target, now)).map(core)
    }

    /// Adds a candidate recorded at `clock` (seconds since the epoch).
    pub fn add(&mut self, request: AddRequest, clock: f64) -> Result<AddOutcome, Failure> {
        let request: population::AddRequest = wit(request);
        self.write(|m, st, db| m.call_add(st, db, &request, clock)).map(core)
    }

    /// A plan at `now` (seconds since the epoch), leased for `lease_seconds` (else the config's).
    pub fn plan_at(
        &mut self,
        n: u32,
        frozen: &[u32],
        boosted: &[u32],
        now: f64,
        lease_seconds: Option<f64>,
    ) -> Result<Plan, Failure> {
        self.write(|m, st, db| m.call_plan_at(st, db, n, frozen, boosted, now, lease_seconds)).map(core)
    }

    /// A leased item's lease extended from `now`.
    pub fn heartbeat(
        &mut self,
        item: &str,
        token: &str,
        now: f64,
        lease_seconds: Option<f64>,
    ) -> Result<Lease, Failure> {
        self.write(|m, st, db| m.call_heartbeat(st, db, item, token, now, lease_seconds)).map(core)
    }

    /// The leased items not applied yet, as they stand at `now`; reads only.
    pub fn leases(&mut self, now: f64) -> Result<Vec<LeaseEntry>, Failure> {
        self.read(|m, st, db| m.call_leases(st, db, now)).map(core)
    }

    pub fn note(&mut self, request: NoteRequest) -> Result<Note, Failure> {
        let request: population::NoteRequest = wit(request);
        self.write(|m, st, db| m.call_note(st, db, &request)).map(core)
    }

    /// A new measurement of a live program folded into its metrics.
    pub fn remeasure(&mut self, request: RemeasureRequest) -> Result<Remeasured, Failure> {
        let request: population::RemeasureRequest = wit(request);
        self.write(|m, st, db| m.call_remeasure(st, db, &request)).map(core)
    }

    /// A new database from `config_json`, then every add in order (each with its clock), saved
    /// once when all succeeded (`import`: all of it or nothing). `named` rewrites a refused add's
    /// message, given its position: the refusal keeps its kind, and so its exit code.
    pub fn init_with_adds(
        &mut self,
        config_json: &str,
        rng_seed: u64,
        adds: &[(AddRequest, f64)],
        named: impl Fn(usize, String) -> String,
    ) -> Result<Option<AddOutcome>, Failure> {
        let adds: Vec<(population::AddRequest, f64)> = adds.iter().map(|(r, clock)| (wit(r.clone()), *clock)).collect();
        let last = self.init_with(config_json, rng_seed, |m, st, db| {
            let mut last = None;
            for (index, (request, clock)) in adds.iter().enumerate() {
                match m.call_add(&mut *st, db, request, *clock)? {
                    Ok(outcome) => last = Some(outcome),
                    Err(e) => return Ok(Err(renamed(e, |message| named(index, message)))),
                }
            }
            Ok(Ok(last))
        })?;
        Ok(last.map(core))
    }
}

/// The refusal with its message rewritten; an IO failure is the store's, and stays as it is.
fn renamed(err: population::Error, named: impl Fn(String) -> String) -> population::Error {
    use population::Error as E;
    match err {
        E::InvalidConfig(m) => E::InvalidConfig(named(m)),
        E::InvalidInput(m) => E::InvalidInput(named(m)),
        E::DuplicateId(m) => E::DuplicateId(named(m)),
        E::CorruptDatabase(m) => E::CorruptDatabase(named(m)),
        E::Io(m) => E::Io(m),
    }
}
