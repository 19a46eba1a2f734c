//! What every command runs with: the sandbox limits, the store flags, and the engine, started
//! only when a command first asks for it (`trial`, `skill`, `strategy`, `view` never do).

use std::cell::OnceCell;

use evodb_host::postgres::PgRun;

use crate::failure::Failure;
use crate::location::StoreArgs;
use crate::reply::Reply;
use crate::serve_protocol::Request;
use crate::session::{Engine, SandboxArgs};

/// How `evodb serve` answers a client's command (typed, with its working directory) on the run
/// it keeps warm: check and dispatch, on the server's engine, which it hands back. Given by
/// `main`, the one dispatcher, so that `serve` needs to know no other command.
pub type Answer = fn(Engine, request: &Request, run: &PgRun) -> (Engine, Result<Reply, Failure>);

/// How `evodb mcp` runs a command line (`["evodb", "best", db, …]`) on its own context, so that a
/// tool answers exactly what the command prints. Given by `main` for the same reason as [`Answer`].
pub type Dispatch = fn(&Context, argv: &[String]) -> Result<Reply, Failure>;

pub struct Context {
    pub sandbox: SandboxArgs,
    pub store: StoreArgs,
    pub answer: Answer,
    pub dispatch: Dispatch,
    engine: OnceCell<Engine>,
}

impl Context {
    pub fn new(sandbox: SandboxArgs, store: StoreArgs, answer: Answer, dispatch: Dispatch) -> Context {
        Context { sandbox, store, answer, dispatch, engine: OnceCell::new() }
    }

    /// A context on an engine already started (the one `evodb serve` keeps warm).
    pub fn holding(engine: Engine, answer: Answer, dispatch: Dispatch) -> Context {
        let (sandbox, store) = (engine.sandbox.clone(), engine.store_args.clone());
        Context { sandbox, store, answer, dispatch, engine: OnceCell::from(engine) }
    }

    /// The engine with the component loaded, started on first use.
    pub fn engine(&self) -> Result<&Engine, Failure> {
        if let Some(engine) = self.engine.get() {
            return Ok(engine);
        }
        let engine = Engine::start(&self.sandbox, self.store.clone())?;
        Ok(self.engine.get_or_init(|| engine))
    }

    /// The engine, if one was started.
    pub fn into_engine(self) -> Option<Engine> {
        self.engine.into_inner()
    }
}
