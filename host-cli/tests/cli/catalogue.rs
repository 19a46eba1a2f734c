//! A catalogue of hostile cases: each case is named, sets up its own sandbox and checks its own
//! outcome; the runner runs them all (a failing case does not hide the others), then reports
//! every failure by name and asserts how many cases ran.

use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use super::Run;

/// One case: a name a reader can search for, and its body (panics on failure).
pub struct Case {
    pub name: String,
    pub body: Box<dyn Fn() + Send + Sync>,
}

impl Case {
    pub fn new(name: impl Into<String>, body: impl Fn() + Send + Sync + 'static) -> Case {
        Case { name: name.into(), body: Box::new(body) }
    }
}

/// How long one case may take before it counts as hung (a command that blocks on a FIFO or a
/// stopped peer is a defect these catalogues exist to catch, so a hang must fail, not stall).
const CASE_DEADLINE: Duration = Duration::from_secs(60);

/// Runs every case, a few at a time; panics listing the failed and hung ones, then checks the
/// count.
pub fn run(suite: &str, cases: Vec<Case>, expected: usize) {
    let total = cases.len();
    let cases: Vec<Arc<Case>> = cases.into_iter().map(Arc::new).collect();
    let failures = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, std::num::NonZero::get).min(4);
    std::panic::set_hook(Box::new(|_| {}));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(case) = cases.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (tx, rx) = mpsc::channel();
                    let running = Arc::clone(case);
                    // Not scoped: a hung case is abandoned, not waited for.
                    std::thread::spawn(move || {
                        let _ = tx.send(catch_unwind(AssertUnwindSafe(&running.body)));
                    });
                    let why = match rx.recv_timeout(CASE_DEADLINE) {
                        Ok(Ok(())) => continue,
                        Ok(Err(panic)) => panic
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| panic.downcast_ref::<&str>().map(ToString::to_string))
                            .unwrap_or_default(),
                        Err(_) => format!("hung: no outcome within {CASE_DEADLINE:?}"),
                    };
                    failures.lock().unwrap().push(format!("{}: {why}", case.name));
                }
            });
        }
    });
    let _ = std::panic::take_hook();
    let failures = failures.into_inner().unwrap();
    println!("{suite}: {total} cases, {} failed", failures.len());
    assert!(failures.is_empty(), "{} of {total} cases failed:\n{}", failures.len(), failures.join("\n\n"));
    assert_eq!(total, expected, "{suite}: the catalogue's case count changed; update the expected count");
}

/// A scratch directory with a victim tree beside the directory a command may write: whatever a
/// case does, [`Sandbox::assert_outside_unchanged`] proves nothing outside changed.
pub struct Sandbox {
    pub dir: tempfile::TempDir,
    before: Vec<(PathBuf, Option<Vec<u8>>)>,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("victim.txt"), "the victim's own bytes\n").unwrap();
        fs::write(outside.join("id_rsa"), "-----BEGIN SECRET-----\n").unwrap();
        let mut sandbox = Sandbox { dir, before: Vec::new() };
        sandbox.before = sandbox.snapshot();
        sandbox
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The victim directory, which no command may change.
    pub fn outside(&self) -> PathBuf {
        self.path("outside")
    }

    fn snapshot(&self) -> Vec<(PathBuf, Option<Vec<u8>>)> {
        let mut entries: Vec<_> = fs::read_dir(self.outside()).unwrap().map(|e| e.unwrap().path()).collect::<Vec<_>>();
        entries.sort();
        entries
            .into_iter()
            .map(|p| {
                let bytes = fs::symlink_metadata(&p).ok().filter(fs::Metadata::is_file).map(|_| fs::read(&p).unwrap());
                (p, bytes)
            })
            .collect()
    }

    /// Panics if any file in `outside/` appeared, vanished or changed.
    pub fn assert_outside_unchanged(&self, context: &str) {
        assert_eq!(self.snapshot(), self.before, "{context}: a file outside the intended directory changed");
    }
}

/// Asserts an exit code and that stderr holds every fragment.
pub fn expect(run: &Run, code: i32, fragments: &[&str]) {
    assert_eq!(run.code, code, "exit code: {run:?}");
    for fragment in fragments {
        assert!(run.stderr.contains(fragment), "stderr lacks `{fragment}`: {run:?}");
    }
}

/// Every file under `dir` with its bytes (symlinks as their target text), sorted.
pub fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        let Ok(entries) = fs::read_dir(dir) else { return };
        let mut entries: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                walk(&path, out);
            } else if meta.file_type().is_symlink() {
                out.push((path.clone(), fs::read_link(&path).unwrap().into_os_string().into_encoded_bytes()));
            } else if meta.is_file() {
                out.push((path.clone(), fs::read(&path).unwrap()));
            }
        }
    }
    walk(dir, &mut out);
    out
}
