//! The wasmtime engine, the sandbox each instance gets, and the limits on every call.

use std::sync::Arc;
use std::time::Duration;

use wasmtime::component::{Component, HasSelf, Linker};
use wasmtime::{Engine, ResourceLimiter, Store, Trap};

use crate::bindings::WithStore;
use crate::bindings::evodb::population::files;
use crate::bindings::population;
use crate::embedded::{self, InPlaceCode};
use crate::engine_config::engine_config;
use crate::error::HostError;
use crate::storage::Files;
use crate::watchdog::Watchdog;

/// Bounds on every component call.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Wall time one call may take before it is interrupted.
    pub time_budget: Duration,
    /// Largest linear memory an instance may grow to.
    pub memory_bytes: usize,
}

impl Default for Limits {
    /// 10 s and 1 GiB: an `add` on a 10,000-program (~20 MB) database takes well under a second
    /// and a few hundred MiB.
    fn default() -> Self {
        Limits { time_budget: Duration::from_secs(10), memory_bytes: 1 << 30 }
    }
}

/// Per-instance host state: the files it was granted and the memory cap.
pub struct State {
    pub(crate) files: Box<dyn Files>,
    memory: MemoryCap,
    /// When the operation's time budget ends, if it began before the call (a PostgreSQL
    /// operation waits for its run's lock first): a call gets what is left of it.
    deadline: Option<std::time::Instant>,
}

impl State {
    /// Where the instance's database lives.
    pub fn files(&self) -> &dyn Files {
        &*self.files
    }

    /// Where the instance's database lives, to read or change it.
    pub fn files_mut(&mut self) -> &mut Box<dyn Files> {
        &mut self.files
    }

    /// Bounds the calls that follow by `deadline` as well as by the time budget of each.
    pub fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.deadline = deadline;
    }
}

/// Refuses memory growth beyond the cap and remembers that it did, so the trap that follows
/// (the guest's allocator aborts) is reported as the cap, not as a crash.
struct MemoryCap {
    max: usize,
    exceeded: bool,
}

impl ResourceLimiter for MemoryCap {
    fn memory_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        let allowed = desired <= self.max;
        self.exceeded |= !allowed;
        Ok(allowed)
    }

    fn table_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        Ok(desired <= 1 << 20)
    }
}

/// A wasmtime engine (with epoch interruption) and a linker holding the `files` import: the only
/// thing an instance can reach (no WASI).
pub struct Host {
    engine: Engine,
    linker: Linker<State>,
    limits: Limits,
    /// The engine publishes code with [`InPlaceCode`], so the built-in machine code is used
    /// where it lies.
    in_place: bool,
}

impl Host {
    pub fn new() -> wasmtime::Result<Host> {
        Host::with_limits(Limits::default())
    }

    pub fn with_limits(limits: Limits) -> wasmtime::Result<Host> {
        let in_place = embedded::in_place_supported();
        let mut config = engine_config();
        if in_place {
            config.with_custom_code_memory(Some(Arc::new(InPlaceCode)));
        }
        let engine = Engine::new(&config)?;
        let mut linker = Linker::new(&engine);
        WithStore::add_to_linker::<_, HasSelf<_>>(&mut linker, |state| state)?;
        Ok(Host { engine, linker, limits, in_place })
    }

    /// The component built into evodb ([`crate::embedded`]), loaded on this engine.
    pub fn load_embedded(&self) -> wasmtime::Result<wasmtime::component::Component> {
        embedded::load(&self.engine, self.maps_code_in_place())
    }

    /// Whether [`Host::load_embedded`] can use the machine code in place.
    pub(crate) fn maps_code_in_place(&self) -> bool {
        self.in_place
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// A store whose instance may use `files` (a directory's two files, or none).
    pub fn store(&self, files: impl Files) -> Store<State> {
        self.store_boxed(Box::new(files))
    }

    /// [`Host::store`] for files already boxed.
    pub fn store_boxed(&self, files: Box<dyn Files>) -> Store<State> {
        let memory = MemoryCap { max: self.limits.memory_bytes, exceeded: false };
        let mut store = Store::new(&self.engine, State { files, memory, deadline: None });
        store.limiter(|state| &mut state.memory);
        // What the guest may hand the host in one call (a history, an export) is bounded by the
        // memory cap, as everything else is; wasmtime's default (128 MiB) would otherwise stop a
        // large history with a trap reported as a bug.
        store.set_hostcall_fuel(self.limits.memory_bytes);
        // Instantiation runs guest code too; calls re-arm the deadline in `call`.
        store.set_epoch_deadline(1);
        store
    }

    /// Instantiates a component of the `with-store` world.
    pub fn instantiate_store(&self, store: &mut Store<State>, component: &Component) -> wasmtime::Result<WithStore> {
        WithStore::instantiate(store, component, &self.linker)
    }

    /// The `population` interface of any component exporting it (the `pure` world's too).
    pub fn instantiate_population(
        &self,
        store: &mut Store<State>,
        component: &Component,
    ) -> wasmtime::Result<population::Guest> {
        let pre = self.linker.instantiate_pre(component)?;
        let indices = population::GuestIndices::new(&pre)?;
        let instance = pre.instantiate(&mut *store)?;
        indices.load(&mut *store, &instance)
    }

    /// Runs one component call under the time budget and the memory cap; a trap becomes the
    /// limit it hit, and the database's own error becomes [`HostError::Database`].
    pub fn call<T>(
        &self,
        store: &mut Store<State>,
        call: impl FnOnce(&mut Store<State>) -> wasmtime::Result<Result<T, population::Error>>,
    ) -> Result<T, HostError> {
        let budget = match store.data().deadline {
            Some(deadline) => {
                self.limits.time_budget.min(deadline.saturating_duration_since(std::time::Instant::now()))
            }
            None => self.limits.time_budget,
        };
        // A zero budget is spent before the call starts: the first epoch check traps, with no
        // race against the watchdog.
        store.set_epoch_deadline(u64::from(!budget.is_zero()));
        // A store kept between calls (`evodb serve`) reports only this call's refusals.
        store.data_mut().memory.exceeded = false;
        let watchdog = Watchdog::arm(&self.engine, budget);
        let result = call(store);
        drop(watchdog);
        match result {
            Ok(Ok(value)) => Ok(value),
            // The guest may turn a refused allocation into an error of its own (std's `fs::read`
            // reports "out of memory"): that is still the cap.
            Ok(Err(_)) if store.data().memory.exceeded => Err(HostError::MemoryCap(self.limits.memory_bytes)),
            Ok(Err(err)) => Err(HostError::Database(err)),
            Err(trap) => Err(self.classify(store, trap)),
        }
    }

    /// What a failed call or instantiation ran into: the memory cap, the time budget, or a
    /// failure of the component itself.
    pub fn classify(&self, store: &Store<State>, err: wasmtime::Error) -> HostError {
        if store.data().memory.exceeded {
            HostError::MemoryCap(self.limits.memory_bytes)
        } else if err.downcast_ref::<Trap>() == Some(&Trap::Interrupt) {
            HostError::TimeBudget(self.limits.time_budget)
        } else if is_address_space_refusal(&err) {
            HostError::AddressSpace(format!("{err:#}"))
        } else {
            HostError::Trap(format!("{err:#}"))
        }
    }
}

/// An instantiation refused its virtual-memory reservation (ENOMEM from mmap), which happens
/// under an address-space limit, not when RAM runs out.
fn is_address_space_refusal(err: &wasmtime::Error) -> bool {
    err.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.raw_os_error() == Some(12))
            || cause.to_string().contains("failed to reserve")
    })
}

/// The component's `files` import: every call goes to the instance's store.
impl files::Host for State {
    fn read_database(&mut self) -> Result<Option<Vec<u8>>, String> {
        Ok(self.files.read_database()?)
    }

    fn read_history(&mut self) -> Result<Option<Vec<u8>>, String> {
        Ok(self.files.read_history()?)
    }

    fn read_pending(&mut self) -> Result<Vec<u8>, String> {
        Ok(self.files.read_pending()?)
    }

    fn database_due(&mut self, events_bytes: u64) -> bool {
        self.files.database_due(events_bytes)
    }

    fn commit(&mut self, database: Option<Vec<u8>>, events: Vec<u8>) -> Result<(), String> {
        Ok(self.files.commit(database.as_deref(), &events)?)
    }
}
