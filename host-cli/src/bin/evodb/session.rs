//! One component instance on one database (a directory or a PostgreSQL run), as each CLI
//! command uses it.

use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use evodb_host::bindings::WithStore;
use evodb_host::postgres::{self, Deadline};
use evodb_host::{Access, Files, Host, HostError, Limits, Position, State, population};
use wasmtime::Store;
use wasmtime::component::{Component, ResourceAny};

use crate::failure::Failure;
use crate::location::{Location, Opened, StoreArgs};

mod warm;
use warm::Served;

/// `--timeBudgetMs` and `--memoryLimitMb`: the sandbox every component call runs in.
#[derive(Clone, Debug)]
pub struct SandboxArgs {
    /// Wall-time budget of each database operation, in milliseconds.
    pub time_budget_ms: u64,
    /// Memory cap of the component, in MiB.
    pub memory_limit_mb: u64,
}

/// The engine with the component loaded: once per process.
pub struct Engine {
    host: Host,
    component: Component,
    pub store_args: StoreArgs,
    pub sandbox: SandboxArgs,
    /// `evodb serve`: the run it serves, whose engine is kept between operations.
    served: Option<Served>,
}

impl Engine {
    pub fn start(sandbox: &SandboxArgs, store_args: StoreArgs) -> Result<Engine, Failure> {
        let memory_bytes = usize::try_from(sandbox.memory_limit_mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX);
        let limits = Limits { time_budget: Duration::from_millis(sandbox.time_budget_ms), memory_bytes };
        let host = Host::with_limits(limits).map_err(internal)?;
        let component = host.load_embedded().map_err(internal)?;
        Ok(Engine { host, component, store_args, sandbox: sandbox.clone(), served: None })
    }

    /// The database at `db` as `database.json`'s JSON value (read-only): for the host-side
    /// commands that look at programs' fields (`apply`, git mode).
    pub fn database_json(&self, db: &Path) -> Result<serde_json::Value, Failure> {
        let text = self.open(db, Access::Read)?.export(evodb_core::ExportFormat::Json)?;
        serde_json::from_str(&text).map_err(|e| Failure::Internal(format!("the export is not JSON: {e}")))
    }

    /// The location `<dbPath>` names: a directory, or a run with `--store`/a `postgres://` URL.
    pub fn locate(&self, db: &Path) -> Result<Location, Failure> {
        self.store_args.locate(db)
    }

    /// An instance granted the database at `db`. A directory is resolved, and created and locked
    /// for writers; a reader of a missing directory reads nothing (the same answer as an empty
    /// database) and nothing is created where the path points. A PostgreSQL run is opened in a
    /// transaction, locked for writers.
    /// A writer refuses a run that is not there (a misspelled --run must not start a new run):
    /// only the commands that make a database use [`Engine::open_to_create`].
    pub fn open(&self, db: &Path, access: Access) -> Result<Session<'_>, Failure> {
        self.open_location(self.locate(db)?, access)
    }

    /// [`Engine::open`] for a writer that makes the database when there is none (`init`,
    /// `seed`, `create`, `ideas`, `import`, `copy`'s destination).
    pub fn open_to_create(&self, db: &Path) -> Result<Session<'_>, Failure> {
        self.open_location_to_create(self.locate(db)?)
    }

    /// [`Engine::open`] on a location already resolved.
    pub fn open_location(&self, location: Location, access: Access) -> Result<Session<'_>, Failure> {
        self.open_within(location, access, false, None)
    }

    /// [`Engine::open_to_create`] on a location already resolved.
    pub fn open_location_to_create(&self, location: Location) -> Result<Session<'_>, Failure> {
        self.open_within(location, Access::Write, true, None)
    }

    /// [`Engine::open_location`] for an operation whose time budget ends at `deadline` (`None`:
    /// the budget starts once connected). On a PostgreSQL run the budget bounds the whole
    /// operation, the wait for the run's lock and every statement included, and the component's
    /// call gets what is left of it.
    fn open_within(
        &self,
        location: Location,
        access: Access,
        creates: bool,
        deadline: Option<Deadline>,
    ) -> Result<Session<'_>, Failure> {
        let budget = Duration::from_millis(self.sandbox.time_budget_ms);
        if let Location::Postgres(run) = &location
            && self.keeps_warm(run)
        {
            return self.open_warm(access, creates, deadline.unwrap_or_else(|| Deadline::after(budget)));
        }
        let Opened { files, shown, deadline } = location.open(access, creates, budget, deadline)?;
        let (mut store, bindings) = self.instantiate(files)?;
        store.data_mut().set_deadline(deadline.map(|deadline| deadline.at));
        let reopen =
            Some(Reopen { location, access, creates, deadline: deadline.unwrap_or_else(|| Deadline::after(budget)) });
        Ok(Session { engine: self, store, bindings, shown, reopen, kept: None, keeps: false })
    }

    fn instantiate(&self, files: Box<dyn Files>) -> Result<(Store<State>, Rc<WithStore>), Failure> {
        let mut store = self.host.store_boxed(files);
        match self.host.instantiate_store(&mut store, &self.component) {
            Ok(bindings) => Ok((store, Rc::new(bindings))),
            Err(err) => Err(self.host.classify(&store, err).into()),
        }
    }
}

pub struct Session<'a> {
    engine: &'a Engine,
    store: Store<State>,
    bindings: Rc<WithStore>,
    /// The location as the user named it (a run without its password), for messages.
    shown: String,
    /// The location, to open again when the store aborted an operation that a retry may get
    /// past (a PostgreSQL deadlock or serialization failure), within the same time budget.
    reopen: Option<Reopen>,
    /// On the run `evodb serve` keeps warm: the instance's loaded database and where it stands,
    /// parked again for the next operation when this session ends.
    kept: Option<(ResourceAny, Position)>,
    /// Opened on the run kept warm: a successful operation keeps its database loaded.
    keeps: bool,
}

/// How a session was opened, to open it again within the same time budget.
#[derive(Clone)]
struct Reopen {
    location: Location,
    access: Access,
    /// A writer that makes the database when there is none.
    creates: bool,
    deadline: Deadline,
}

/// The `database` resource's methods, as an operation receives them.
pub type Methods<'a> = population::GuestDatabase<'a>;

/// What an operation on the loaded database returns: a trap, the database's refusal, or a value.
pub type Outcome<T> = wasmtime::Result<Result<T, population::Error>>;

impl Session<'_> {
    /// Runs `op` on the stored database (a fresh one with the seed skill's defaults when the
    /// directory holds none) and saves nothing.
    pub fn read<T>(
        &mut self,
        op: impl FnMut(&Methods<'_>, &mut Store<State>, ResourceAny) -> Outcome<T>,
    ) -> Result<T, Failure> {
        self.run(false, op)
    }

    /// Runs `op` on the stored database (a fresh one, recording from `created`, when there is
    /// none) and saves it with its events when `op` succeeded.
    pub fn write<T>(
        &mut self,
        op: impl FnMut(&Methods<'_>, &mut Store<State>, ResourceAny) -> Outcome<T>,
    ) -> Result<T, Failure> {
        self.run(true, op)
    }

    /// `init`: a new database from `config_json`, saved; refused when the directory holds one
    /// (the writer's lock is held, so the check stands until the save).
    pub fn init(&mut self, config_json: &str, rng_seed: u64) -> Result<population::DatabaseInfo, Failure> {
        self.init_with(config_json, rng_seed, |m, st, db| ok(m.call_info(st, db)))
    }

    /// A new database from `config_json`, then `op` on it, saved once when both succeeded
    /// (`evodb import` adds a whole run this way: all of it or nothing); refused when one is
    /// stored there already.
    pub fn init_with<T>(
        &mut self,
        config_json: &str,
        rng_seed: u64,
        mut op: impl FnMut(&Methods<'_>, &mut Store<State>, ResourceAny) -> Outcome<T>,
    ) -> Result<T, Failure> {
        if self.holds_database() {
            return Err(Failure::BadInput(format!(
                "{} already holds a database; use it as it is, or remove it to start over",
                self.shown
            )));
        }
        let (interface, methods) =
            (self.bindings.evodb_population_store(), self.bindings.evodb_population_population().database());
        let (engine, shown) = (self.engine, self.shown.clone());
        self.store.data_mut().files_mut().take_committed();
        let result = self.engine.host.call(&mut self.store, |store| {
            let db = match create_recording(&methods, store, config_json, rng_seed)? {
                Ok(db) => db,
                Err(e) => return Ok(Err(e)),
            };
            let value = match op(&methods, &mut *store, db)? {
                Ok(value) => value,
                Err(e) => return Ok(Err(e)),
            };
            match save_db(interface, store, db, engine, &shown)? {
                Ok(Saved::Whole) => {}
                Ok(Saved::ThenFailed) => return Ok(Ok(value)),
                Err(e) => return Ok(Err(e)),
            }
            db.resource_drop(&mut *store)?;
            Ok(Ok(value))
        });
        result.map_err(|e| self.failed(e))
    }

    /// Whether a database is stored there (checked under a writer's lock, so it stands).
    pub fn holds_database(&self) -> bool {
        self.store.data().files().holds_database()
    }

    /// Writers other than `create`/`init` start a database where there is none, as the seed
    /// does; the user probably meant an existing one (a typo in the path), so they are told.
    pub fn new_database_warning(&self) -> Vec<String> {
        match self.holds_database() {
            true => Vec::new(),
            false => vec![format!("no database at {}; creating a new one", self.shown)],
        }
    }

    /// The directory, for what only a directory has (its history file's torn lines).
    pub fn directory(&self) -> Option<&Path> {
        self.store.data().files().directory()
    }

    /// The location as the user named it, for messages.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// The stored `database.json`, byte for byte (empty when there is none); for a run whose
    /// snapshot lags its events, the engine's export of it brought up to date.
    pub fn database_bytes(&mut self) -> Result<Vec<u8>, Failure> {
        if !self.store.data().files().is_current() {
            let format = population::ExportFormat::Json;
            return self.read(|m, st, db| ok(m.call_export(st, db, format))).map(String::into_bytes);
        }
        let bytes = self.store.data_mut().files_mut().read_database().map_err(|e| Failure::Io(e.into()))?;
        Ok(bytes.unwrap_or_default())
    }

    /// Stores `database` and `history` as they are, in one commit (a writer's session).
    pub fn commit_bytes(&mut self, database: &[u8], history: &[u8]) -> Result<(), Failure> {
        let committed = self.store.data_mut().files_mut().commit(Some(database), history);
        committed.map_err(|e| self.failed(HostError::Io(e.into())))
    }

    /// `<dir>/history.ndjson` as stored.
    pub fn history(&mut self) -> Result<String, Failure> {
        let interface = self.bindings.evodb_population_store();
        let result = self.engine.host.call(&mut self.store, |store| interface.call_history(store));
        result.map_err(|e| self.failed(e))
    }

    /// Every problem in `<dir>/database.json` as stored.
    pub fn validate(&mut self) -> Result<Vec<String>, Failure> {
        let interface = self.bindings.evodb_population_store();
        let result = self.engine.host.call(&mut self.store, |store| interface.call_validate(store));
        result.map_err(|e| self.failed(e))
    }

    /// load → `op` → save (writers), all under one time budget. When PostgreSQL aborted the
    /// transaction for a deadlock or a serialization failure, the run is opened again and the
    /// whole operation runs again, up to [`postgres::RETRIES`] times with a growing wait.
    fn run<T>(
        &mut self,
        save: bool,
        mut op: impl FnMut(&Methods<'_>, &mut Store<State>, ResourceAny) -> Outcome<T>,
    ) -> Result<T, Failure> {
        let mut attempt = 0;
        loop {
            let result = self.run_once(save, &mut op);
            let transient = self.store.data().files().transient_failure().map(String::from);
            match (result, transient, self.reopen.clone()) {
                (Err(_), Some(message), Some(Reopen { location, access, creates, deadline }))
                    if attempt < postgres::RETRIES =>
                {
                    attempt += 1;
                    eprintln!("{}", location.redact(&postgres::retry_warning(&message, attempt)));
                    std::thread::sleep(postgres::backoff(attempt));
                    // This session's connection first goes back to `evodb serve`, whose group's
                    // transaction (and the run's lock) it may hold.
                    self.hand_back();
                    *self = self.engine.open_within(location, access, creates, Some(deadline))?;
                }
                (result, _, _) => return result,
            }
        }
    }

    fn run_once<T>(
        &mut self,
        save: bool,
        op: &mut impl FnMut(&Methods<'_>, &mut Store<State>, ResourceAny) -> Outcome<T>,
    ) -> Result<T, Failure> {
        let (interface, methods) =
            (self.bindings.evodb_population_store(), self.bindings.evodb_population_population().database());
        let (kept, keep) = (self.kept.take(), self.keeps);
        if kept.is_none() {
            // A load reads the snapshot and every event after it, wherever the run was resumed.
            self.store.data_mut().files_mut().reload();
        }
        let (engine, shown) = (self.engine, self.shown.clone());
        self.store.data_mut().files_mut().take_committed();
        let result = self.engine.host.call(&mut self.store, |store| {
            let db = match kept {
                // Parked by the operation before: the events stored since are re-run onto it.
                Some((db, _)) => match interface.call_catch_up(&mut *store, db)? {
                    Ok(()) => db,
                    Err(e) => return Ok(Err(e)),
                },
                None => match interface.call_load(&mut *store)? {
                    Ok(Some(db)) => {
                        for warning in methods.call_load_warnings(&mut *store, db)? {
                            eprintln!("warning: {warning}");
                        }
                        db
                    }
                    Ok(None) => create_recording(&methods, store, "{}", 0)?.expect("the default config is valid"),
                    Err(e) => return Ok(Err(e)),
                },
            };
            let value = match op(&methods, &mut *store, db)? {
                Ok(value) => value,
                Err(e) => return Ok(Err(e)),
            };
            if save {
                match save_db(interface, store, db, engine, &shown)? {
                    Ok(Saved::Whole) => {}
                    // The instance, part-way through its save, is not kept.
                    Ok(Saved::ThenFailed) => return Ok(Ok((value, None))),
                    Err(e) => return Ok(Err(e)),
                }
            }
            // A reader that recorded events changed what it did not save: not kept.
            if keep && (save || methods.call_take_events(&mut *store, db)?.is_empty()) {
                return Ok(Ok((value, Some(db))));
            }
            db.resource_drop(&mut *store)?;
            Ok(Ok((value, None)))
        });
        let (value, db) = result.map_err(|e| self.failed(e))?;
        if let Some(db) = db {
            let files = self.store.data_mut().files_mut();
            files.caught_up();
            self.kept = files.position().map(|at| (db, at));
        }
        Ok(value)
    }

    /// A failed call: the directory cleaned up, and an engine that was kept warm dropped (it may
    /// be part-way through the call, or trapped).
    fn failed(&mut self, err: HostError) -> Failure {
        self.kept = None;
        self.store.data().files().clean_up_after_failure();
        // A PostgreSQL statement the time budget cut short: exit 4, as the budget is, whatever
        // the component made of the failed read or commit.
        if let Some(message) = self.store.data().files().timed_out() {
            return Failure::Limit(message.to_string());
        }
        Failure::from(err)
    }
}

/// A call that failed after its commit went through (its time budget ran out as the component
/// finished its save): the operation is stored, so the command answers as it succeeded, and
/// says so on stderr.
/// How a save ended when it stored the database.
enum Saved {
    Whole,
    /// Stored, and the call failed only after: the operation's answer (made before the save)
    /// stands, with a warning.
    ThenFailed,
}

/// Saves `db`. A failure before anything was stored is the save's own error (or trap); one
/// after it is [`Saved::ThenFailed`], already warned about.
fn save_db(
    interface: &evodb_host::store::Guest,
    store: &mut Store<State>,
    db: ResourceAny,
    engine: &Engine,
    shown: &str,
) -> Outcome<Saved> {
    match interface.call_save(&mut *store, db) {
        Ok(Ok(())) => Ok(Ok(Saved::Whole)),
        Ok(Err(e)) if !store.data().files().committed() => Ok(Err(e)),
        Err(trap) if !store.data().files().committed() => Err(trap),
        failed => {
            saved_then_failed(engine, store, shown, failed.err());
            Ok(Ok(Saved::ThenFailed))
        }
    }
}

fn saved_then_failed(engine: &Engine, store: &Store<State>, shown: &str, trap: Option<wasmtime::Error>) {
    let why =
        trap.map_or_else(|| "the save reported an error".to_string(), |t| engine.host.classify(store, t).to_string());
    eprintln!("warning: the operation was saved to {shown}; the call failed only after that ({why})");
}

/// A new database that records its events from `created` on, as a saved history must begin.
fn create_recording(
    methods: &Methods<'_>,
    store: &mut Store<State>,
    config_json: &str,
    rng_seed: u64,
) -> Outcome<ResourceAny> {
    let db = match methods.call_create(&mut *store, config_json, rng_seed)? {
        Ok(db) => db,
        Err(e) => return Ok(Err(e)),
    };
    methods.call_record_events(&mut *store, db, true)?;
    Ok(Ok(db))
}

/// An infallible method's result as an [`Outcome`].
pub fn ok<T>(value: wasmtime::Result<T>) -> Outcome<T> {
    value.map(Ok)
}

fn internal(err: wasmtime::Error) -> Failure {
    Failure::Internal(format!("cannot start the database component: {err:#}"))
}
