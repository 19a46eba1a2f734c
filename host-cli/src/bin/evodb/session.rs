//! One component instance on one database directory, as each CLI command uses it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use evodb_host::bindings::WithStore;
use evodb_host::store::Guest as StoreInterface;
use evodb_host::{Access, DatabaseDir, GUEST_DIR, Host, Limits, State, embedded, population};
use wasmtime::Store;
use wasmtime::component::Component;

use crate::args::SandboxArgs;
use crate::failure::Failure;

/// The engine with the component loaded: once per process.
pub struct Runtime {
    host: Host,
    component: Component,
}

impl Runtime {
    pub fn start(sandbox: &SandboxArgs) -> Result<Runtime, Failure> {
        let memory_bytes = usize::try_from(sandbox.memory_limit_mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX);
        let limits = Limits { time_budget: Duration::from_millis(sandbox.time_budget_ms), memory_bytes };
        let host = Host::with_limits(limits).map_err(internal)?;
        let component = embedded::load(&host).map_err(internal)?;
        Ok(Runtime { host, component })
    }

    /// An instance seeing only `path` (resolved; created and locked for writers). A reader of a
    /// missing directory gets an empty scratch directory: the same answer as an empty database,
    /// and nothing is created where the path points.
    pub fn open(&self, path: &Path, access: Access) -> Result<Session<'_>, Failure> {
        let dir = DatabaseDir::open(path, access)?;
        if let Some(repair) = dir.repaired() {
            eprintln!("warning: {repair}");
        }
        let scratch = match dir.path() {
            Some(_) => None,
            None => {
                Some(tempfile::tempdir().map_err(|e| Failure::Io(format!("cannot create a scratch directory: {e}")))?)
            }
        };
        let preopen = dir.path().or(scratch.as_ref().map(|d| d.path())).expect("one of the two is set");
        let mut store = self.host.store(Some(preopen)).map_err(internal)?;
        let bindings = match self.host.instantiate_store(&mut store, &self.component) {
            Ok(bindings) => bindings,
            Err(err) => return Err(self.host.classify(&store, err).into()),
        };
        Ok(Session { host: &self.host, store, bindings, user_path: path.to_path_buf(), dir, _scratch: scratch })
    }
}

pub struct Session<'a> {
    host: &'a Host,
    store: Store<State>,
    bindings: WithStore,
    /// The directory as the user named it, for messages.
    user_path: PathBuf,
    dir: DatabaseDir,
    _scratch: Option<tempfile::TempDir>,
}

impl Session<'_> {
    /// Calls the `store` interface on the database directory under the sandbox's limits.
    pub fn call<T>(
        &mut self,
        op: impl FnOnce(&StoreInterface, &mut Store<State>, &str) -> wasmtime::Result<Result<T, population::Error>>,
    ) -> Result<T, Failure> {
        let interface = self.bindings.evodb_population_store();
        let result = self.host.call(&mut self.store, |store| op(interface, store, GUEST_DIR));
        result.map_err(|err| {
            self.dir.clean_up_after_failure();
            Failure::from(err).map_message(|m| user_paths(m, &self.user_path))
        })
    }
}

/// The component names files under [`GUEST_DIR`]; the user knows them by the path they gave.
fn user_paths(message: String, user_path: &Path) -> String {
    let shown = user_path.display().to_string();
    let shown = shown.trim_end_matches('/');
    message
        .replace(&format!("{GUEST_DIR}/"), &format!("{shown}/"))
        .replace(&format!("`{GUEST_DIR}`"), &format!("`{shown}`"))
}

fn internal(err: wasmtime::Error) -> Failure {
    Failure::Internal(format!("cannot start the database component: {err:#}"))
}
