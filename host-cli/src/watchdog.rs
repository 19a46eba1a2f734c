//! The time budget's alarm: once a call's budget has passed, the engine's epoch advances, which
//! interrupts the running guest (the store's epoch deadline traps).
//!
//! The alarm is a POSIX timer of the calling thread (`timer_create` with `SIGEV_THREAD_ID`)
//! whose `SIGALRM` handler advances the epoch of the engine this thread's call runs on. It used
//! to be a thread per call, sleeping on a channel: on a whole `evodb sample`, that thread cost
//! ~8% of the process's CPU (`perf stat -r 40`: 5.04 → 4.62 ms) — creating it, its malloc arena,
//! and the TLB shootdowns every later `munmap`/`mprotect` of the call paid once a second thread
//! shared the address space. The thread stays as the fallback where a timer cannot be created.

use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::{OnceLock, mpsc};
use std::thread;
use std::time::Duration;

use nix::libc;
use nix::sys::signal::{SaFlags, SigAction, SigEvent, SigHandler, SigSet, SigevNotify, Signal, sigaction};
use nix::sys::time::TimeSpec;
use nix::sys::timer::{Expiration, Timer, TimerSetTimeFlags};
use nix::time::ClockId;
use wasmtime::Engine;

thread_local! {
    /// The engine whose call this thread is running under an armed timer; null otherwise. The
    /// handler reads it (a const-initialized thread-local is a plain TLS slot: signal-safe), so a
    /// signal arriving after the watchdog was dropped finds nothing to advance.
    static ARMED: Cell<*const Engine> = const { Cell::new(std::ptr::null()) };
}

/// Advances `engine`'s epoch once `budget` has passed, unless dropped first (the call finished).
/// It borrows the engine for as long as its timer may name it.
pub struct Watchdog<'engine> {
    /// Deleted on drop (`timer_delete`).
    _timer: Option<Timer>,
    /// The fallback thread's channel; dropping it wakes the thread to end without touching the
    /// epoch.
    _thread: Option<mpsc::Sender<()>>,
    _engine: PhantomData<&'engine Engine>,
}

impl<'engine> Watchdog<'engine> {
    /// Arms the alarm; a zero budget arms none (the store's deadline is already spent).
    pub fn arm(engine: &'engine Engine, budget: Duration) -> Watchdog<'engine> {
        let mut watchdog = Watchdog { _timer: None, _thread: None, _engine: PhantomData };
        if budget.is_zero() {
            return watchdog;
        }
        ARMED.set(std::ptr::from_ref(engine));
        match thread_timer(budget) {
            Ok(timer) => watchdog._timer = Some(timer),
            Err(_) => {
                ARMED.set(std::ptr::null());
                watchdog._thread = Some(thread_alarm(engine, budget));
            }
        }
        watchdog
    }
}

impl Drop for Watchdog<'_> {
    fn drop(&mut self) {
        // Before the timer is deleted: a signal still in flight then finds nothing to advance.
        ARMED.set(std::ptr::null());
    }
}

/// A one-shot timer that sends `SIGALRM` to this thread.
fn thread_timer(budget: Duration) -> nix::Result<Timer> {
    install_handler()?;
    let event = SigEvent::new(SigevNotify::SigevThreadId {
        signal: Signal::SIGALRM,
        thread_id: nix::unistd::gettid().as_raw(),
        si_value: 0,
    });
    let mut timer = Timer::new(ClockId::CLOCK_MONOTONIC, event)?;
    timer.set(Expiration::OneShot(TimeSpec::from_duration(budget)), TimerSetTimeFlags::empty())?;
    Ok(timer)
}

fn thread_alarm(engine: &Engine, budget: Duration) -> mpsc::Sender<()> {
    let (finished, wait) = mpsc::channel::<()>();
    let engine = engine.clone();
    thread::spawn(move || {
        if wait.recv_timeout(budget) == Err(mpsc::RecvTimeoutError::Timeout) {
            engine.increment_epoch();
        }
    });
    finished
}

/// Installs the `SIGALRM` handler once per process; a failure is returned to every caller.
fn install_handler() -> nix::Result<()> {
    static INSTALLED: OnceLock<nix::Result<()>> = OnceLock::new();
    *INSTALLED.get_or_init(|| {
        // SA_RESTART: a system call the alarm lands in (a host import reading a file) resumes; the
        // guest traps at its next epoch check.
        let flags = SaFlags::SA_SIGINFO | SaFlags::SA_RESTART;
        let action = SigAction::new(SigHandler::SigAction(on_alarm), flags, SigSet::empty());
        #[allow(unsafe_code)]
        // SAFETY: `on_alarm` is async-signal-safe (below); nothing else in evodb uses SIGALRM.
        unsafe { sigaction(Signal::SIGALRM, &action) }.map(drop)
    })
}

/// The handler: advances the epoch of the engine this thread's armed watchdog borrows.
#[allow(unsafe_code)]
extern "C" fn on_alarm(_signal: libc::c_int, info: *mut libc::siginfo_t, _context: *mut libc::c_void) {
    // SAFETY: `info` is the kernel's siginfo for this delivery. ARMED is non-null only between
    // `Watchdog::arm` and its drop, while the watchdog borrows the engine it points to, and the
    // timer sends its signal to this thread only. `increment_epoch` is documented signal-safe: one
    // atomic add, no allocation, no lock, no system call.
    unsafe {
        if info.is_null() || (*info).si_code != libc::SI_TIMER {
            return; // a SIGALRM someone else sent (`kill -ALRM`): not ours to act on
        }
        if let Some(engine) = ARMED.get().as_ref() {
            engine.increment_epoch();
        }
    }
}
