//! `evodb serve`'s warm engine: the run it keeps loaded, parked between two operations with the
//! connection it used and where its database stands in the run ([`Position`]), so that the next
//! operation re-runs only the events stored since (`catch_up`) instead of loading the run.

use std::cell::RefCell;
use std::rc::Rc;

use evodb_host::bindings::WithStore;
use evodb_host::postgres::{Deadline, PgFiles, PgRun};
use evodb_host::{Access, Files, HostError, NoFiles, Position, State};
use wasmtime::Store;
use wasmtime::component::ResourceAny;

use super::{Engine, Reopen, Session};
use crate::failure::Failure;
use crate::location::{Location, no_run};

/// The run `evodb serve` keeps warm, and its engine while no operation is using it.
pub(super) struct Served {
    run: PgRun,
    warm: RefCell<Option<Warm>>,
}

/// An instance whose database has been loaded, parked between two operations with the
/// connection it used and where its database stands in the run.
pub(super) struct Warm {
    store: Store<State>,
    bindings: Rc<WithStore>,
    db: ResourceAny,
    at: Position,
    client: ::postgres::Client,
}

impl Engine {
    /// From now on, keeps the engine of `run` loaded between operations on it (`evodb serve`):
    /// an operation re-runs only the events stored since the one before.
    pub fn keep_warm(&mut self, run: PgRun) {
        self.served = Some(Served { run, warm: RefCell::new(None) });
    }

    /// Whether `run` is the run kept warm (the same server, database and run, whatever the
    /// password).
    pub fn keeps_warm(&self, run: &PgRun) -> bool {
        self.served.as_ref().is_some_and(|served| served.run.identity() == run.identity())
    }

    /// The served run, opened on the engine parked by the operation before when the run's
    /// events alone can bring it up to date; on a new instance that loads the run otherwise.
    pub(super) fn open_warm(&self, access: Access, creates: bool, deadline: Deadline) -> Result<Session<'_>, Failure> {
        let served = self.served.as_ref().expect("open_warm is called for the served run");
        let (run, writable) = (&served.run, access == Access::Write);
        let (mut files, parked) = match served.warm.borrow_mut().take() {
            Some(Warm { store, bindings, db, at, client }) => {
                // A connection that broke (the server restarted) is made again; the engine stays.
                // A budget spent waiting for the run's lock is not waited again.
                let files = match PgFiles::resume(client, run, writable, at, Some(deadline)) {
                    Ok(files) => files,
                    Err(e @ HostError::Deadline(_)) => return Err(e.into()),
                    Err(_) => PgFiles::resume(PgFiles::connect(run)?, run, writable, at, Some(deadline))?,
                };
                let parked = files.resumes().then_some((store, bindings, db, at));
                (files, parked)
            }
            None => (PgFiles::open_until(run, writable, deadline)?, None),
        };
        if !files.holds_database() && (access == Access::Read || !creates) {
            return Err(no_run(run, &mut files, access));
        }
        let files: Box<dyn Files> = Box::new(files);
        let (mut store, bindings, kept) = match parked {
            Some((mut store, bindings, db, at)) => {
                *store.data_mut().files_mut() = files;
                (store, bindings, Some((db, at)))
            }
            None => {
                let (store, bindings) = self.instantiate(files)?;
                (store, bindings, None)
            }
        };
        store.data_mut().set_deadline(Some(deadline.at));
        let reopen = Some(Reopen { location: Location::Postgres(Box::new(run.clone())), access, creates, deadline });
        Ok(Session { engine: self, store, bindings, shown: run.shown(), reopen, kept, keeps: true })
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let (Some((db, at)), Some(served)) = (self.kept.take(), &self.engine.served) else { return };
        let mut store = std::mem::replace(&mut self.store, self.engine.host.store(NoFiles));
        let files = std::mem::replace(store.data_mut().files_mut(), Box::new(NoFiles));
        let Ok(files) = files.into_any().downcast::<PgFiles>() else { return };
        let Some(client) = files.into_client() else { return };
        *served.warm.borrow_mut() = Some(Warm { store, bindings: Rc::clone(&self.bindings), db, at, client });
    }
}
