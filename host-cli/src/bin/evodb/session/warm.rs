//! `evodb serve`'s warm engine: the run it keeps loaded, parked between two operations with
//! where its database stands in the run ([`Position`]), so that the next operation re-runs only
//! the events stored since (`catch_up`) instead of loading the run; and the connection it keeps,
//! on which the operations of a group share one transaction (`postgres::group`).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use evodb_host::bindings::WithStore;
use evodb_host::postgres::{Carried, Deadline, Grouped, PgFiles, PgRun, commit_group, reclaim_snapshot_space};
use evodb_host::{Access, Files, HostError, NoFiles, Position, State};
use wasmtime::Store;
use wasmtime::component::ResourceAny;

use super::{Engine, Reopen, Session};
use crate::failure::Failure;
use crate::location::{Location, no_run};

/// The run `evodb serve` keeps warm, its engine while no operation is using it, and its
/// connection.
pub(super) struct Served {
    run: PgRun,
    warm: RefCell<Option<Warm>>,
    client: RefCell<Option<::postgres::Client>>,
    group: Cell<Group>,
    /// Where the run stands after the group's last operation (see [`Carried`]).
    carried: RefCell<Option<Carried>>,
    /// A grouped operation stored a snapshot: its predecessor's space is reclaimed after the
    /// group's commit.
    reclaim_due: Cell<bool>,
}

/// An instance whose database has been loaded, parked between two operations with where its
/// database stands in the run.
pub(super) struct Warm {
    store: Store<State>,
    bindings: Rc<WithStore>,
    db: ResourceAny,
    at: Position,
}

/// Where a group of operations stands (see [`Engine::begin_group`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Group {
    /// No group: each operation has a transaction of its own.
    #[default]
    Off,
    /// Begun; its first operation begins the transaction.
    Begun,
    /// Its transaction is open on the kept connection.
    Open,
    /// Its connection was lost part-way: nothing of it is stored.
    Lost,
}

impl Engine {
    /// From now on, keeps the engine of `run` loaded between operations on it (`evodb serve`):
    /// an operation re-runs only the events stored since the one before.
    pub fn keep_warm(&mut self, run: PgRun) {
        self.served = Some(Served {
            run,
            warm: RefCell::new(None),
            client: RefCell::new(None),
            group: Cell::new(Group::Off),
            carried: RefCell::new(None),
            reclaim_due: Cell::new(false),
        });
    }

    /// Whether `run` is the run kept warm (the same server, database and run, whatever the
    /// password).
    pub fn keeps_warm(&self, run: &PgRun) -> bool {
        self.served.as_ref().is_some_and(|served| served.run.identity() == run.identity())
    }

    /// The operations on the served run from now until [`Engine::end_group`] share one
    /// transaction, committed once by `end_group`: what `evodb serve` does with the commands
    /// that queued while one ran. Each sees what those before it wrote.
    pub fn begin_group(&self) {
        if let Some(served) = &self.served {
            served.group.set(Group::Begun);
        }
    }

    /// Commits the group's operations; `Err` is the failure every operation of the group
    /// answers instead of its own answer (then the engine is loaded afresh by the next one:
    /// it may be ahead of what is stored).
    pub fn end_group(&self) -> Result<(), Failure> {
        let Some(served) = &self.served else { return Ok(()) };
        served.carried.borrow_mut().take();
        let committed = match served.group.replace(Group::Off) {
            Group::Off | Group::Begun => Ok(()),
            Group::Lost => Err(format!(
                "nothing was saved to {}: the connection to PostgreSQL was lost while the command was answered; run \
                 the same command again",
                served.run.shown()
            )),
            Group::Open => match served.client.borrow_mut().as_mut() {
                Some(client) => commit_group(client, &served.run),
                None => Err(format!("the connection to {} is gone; this is a bug in evodb", served.run.shown())),
            },
        };
        if committed.is_err() {
            served.warm.borrow_mut().take();
            served.client.borrow_mut().take();
        } else if served.reclaim_due.take()
            && let Some(client) = served.client.borrow_mut().as_mut()
        {
            reclaim_snapshot_space(client);
        }
        committed.map_err(Failure::Io)
    }

    /// The served run, opened on the engine parked by the operation before when the run's
    /// events alone can bring it up to date; on a new instance that loads the run otherwise.
    pub(super) fn open_warm(&self, access: Access, creates: bool, deadline: Deadline) -> Result<Session<'_>, Failure> {
        let served = self.served.as_ref().expect("open_warm is called for the served run");
        let (run, writable) = (&served.run, access == Access::Write);
        let grouped = match served.group.get() {
            Group::Off => Grouped::Alone,
            Group::Begun => Grouped::Opens,
            Group::Open => Grouped::Joins,
            Group::Lost => return Err(Failure::Io(format!("the connection to {} was lost", run.shown()))),
        };
        let parked = served.warm.borrow_mut().take();
        let client = served.client.borrow_mut().take();
        let at = parked.as_ref().map(|warm| warm.at);
        let carried = served.carried.borrow_mut().take();
        let opened = match client {
            Some(client) => match PgFiles::resume(client, run, writable, at, Some(deadline), grouped, carried) {
                // A budget spent waiting for the run's lock is not waited again.
                Err(e @ HostError::Deadline(_)) => Err(e),
                // A connection that broke (the server restarted) is made again, but for a group's,
                // which took its transaction with it.
                Err(_) if grouped != Grouped::Joins => {
                    PgFiles::resume(PgFiles::connect(run)?, run, writable, at, Some(deadline), grouped, None)
                }
                result => result,
            },
            None if grouped == Grouped::Joins => Err(HostError::Io(format!(
                "the group's connection to {} is in use; this is a bug in evodb",
                run.shown()
            ))),
            None => PgFiles::resume(PgFiles::connect(run)?, run, writable, at, Some(deadline), grouped, None),
        };
        let mut files = match opened {
            Ok(files) => files,
            Err(e) => {
                served.connection_lost(grouped);
                return Err(e.into());
            }
        };
        if grouped == Grouped::Opens {
            served.group.set(Group::Open);
        }
        let grouped = match grouped {
            Grouped::Opens => Grouped::Joins,
            other => other,
        };
        let parked = parked.filter(|_| files.resumes());
        if !files.holds_database() && (access == Access::Read || !creates) {
            let failure = no_run(run, &mut files, access);
            served.hand_back(Box::new(files));
            return Err(failure);
        }
        let files: Box<dyn Files> = Box::new(files);
        let (mut store, bindings, kept) = match parked {
            Some(Warm { mut store, bindings, db, at }) => {
                *store.data_mut().files_mut() = files;
                (store, bindings, Some((db, at)))
            }
            None => match self.instantiate(files) {
                Ok((store, bindings)) => (store, bindings, None),
                Err(failure) => {
                    served.connection_lost(grouped);
                    return Err(failure);
                }
            },
        };
        store.data_mut().set_deadline(Some(deadline.at));
        let reopen = Some(Reopen { location: Location::Postgres(Box::new(run.clone())), access, creates, deadline });
        Ok(Session { engine: self, store, bindings, shown: run.shown(), reopen, kept, keeps: true })
    }
}

impl Served {
    /// The connection an operation opened with (`grouped`) is gone: a group whose transaction
    /// was open on it is lost; one that had not begun its transaction begins it again.
    fn connection_lost(&self, grouped: Grouped) {
        match grouped {
            Grouped::Joins => self.group.set(Group::Lost),
            Grouped::Opens => self.group.set(Group::Begun),
            Grouped::Alone => {}
        }
    }

    /// An operation's store, ended: what it did not save undone, and the connection kept for
    /// the next one (a group's lost with it when it no longer works).
    fn hand_back(&self, files: Box<dyn Files>) {
        let Ok(files) = files.into_any().downcast::<PgFiles>() else { return };
        if files.reclaim_due() {
            self.reclaim_due.set(true);
        }
        *self.carried.borrow_mut() = files.carried();
        match files.into_client() {
            Some(client) => *self.client.borrow_mut() = Some(client),
            None if self.group.get() == Group::Open => self.group.set(Group::Lost),
            None => {}
        }
    }
}

impl Session<'_> {
    /// Ends the operation on the served run: its connection handed back to the server, and its
    /// engine parked for the next operation when the operation kept it.
    pub(super) fn hand_back(&mut self) {
        let Some(served) = self.engine.served.as_ref().filter(|_| self.keeps) else { return };
        let files = std::mem::replace(self.store.data_mut().files_mut(), Box::new(NoFiles));
        served.hand_back(files);
        let Some((db, at)) = self.kept.take() else { return };
        let store = std::mem::replace(&mut self.store, self.engine.host.store(NoFiles));
        *served.warm.borrow_mut() = Some(Warm { store, bindings: Rc::clone(&self.bindings), db, at });
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        self.hand_back();
    }
}
