//! What every command runs with: the sandbox limits, the store flags, and the engine, started
//! only when a command first asks for it (`trial`, `skill`, `strategy`, `view` never do).

use std::cell::OnceCell;
use std::path::Path;

use evodb_host::postgres::PgRun;

use crate::failure::Failure;
use crate::location::StoreArgs;
use crate::reply::Reply;
use crate::session::{Runtime, SandboxArgs};

/// How `evodb serve` answers a client's command line (given with its working directory) on the
/// run it keeps warm: parse, check and dispatch, on the server's engine, which it hands back.
/// Given by `main`, the one dispatcher, so that `serve` needs to know no other command.
pub type Answer = fn(Runtime, argv: &[String], cwd: &Path, run: &PgRun) -> (Runtime, Result<Reply, Failure>);

pub struct Context {
    pub sandbox: SandboxArgs,
    pub store: StoreArgs,
    pub answer: Answer,
    runtime: OnceCell<Runtime>,
}

impl Context {
    pub fn new(sandbox: SandboxArgs, store: StoreArgs, answer: Answer) -> Context {
        Context { sandbox, store, answer, runtime: OnceCell::new() }
    }

    /// A context on an engine already started (the one `evodb serve` keeps warm).
    pub fn holding(runtime: Runtime, answer: Answer) -> Context {
        let (sandbox, store) = (runtime.sandbox.clone(), runtime.store_args.clone());
        Context { sandbox, store, answer, runtime: OnceCell::from(runtime) }
    }

    /// The engine with the component loaded, started on first use.
    pub fn runtime(&self) -> Result<&Runtime, Failure> {
        if let Some(runtime) = self.runtime.get() {
            return Ok(runtime);
        }
        let runtime = Runtime::start(&self.sandbox, self.store.clone())?;
        Ok(self.runtime.get_or_init(|| runtime))
    }

    /// The engine, if one was started.
    pub fn into_runtime(self) -> Option<Runtime> {
        self.runtime.into_inner()
    }
}
