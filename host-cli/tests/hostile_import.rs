//! Hostile input for `evodb import` and for the directory store's first surfaces (issue 35: item
//! 9, the `import` lines of "Low", "The first surfaces, rechecked"). One catalogue: each case
//! runs with a deadline (a hang fails it instead of stalling the suite) and checks the exit code
//! (never 101, a panic), the message (and that its backticks pair up), that no file outside the
//! intended directories changed, that nothing of a secret file outside leaks into the output,
//! and that a refused import stored nothing (no database, no directory left behind).
//!
//! The disk-full cases run `evodb` under `ulimit -f` (with SIGXFSZ ignored, a write past the
//! limit fails with EFBIG as a full disk fails with ENOSPC), which needs no privileges.

use crate::cli;

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cli::{Run, add_args, command, evodb, seed_args};
use serde_json::{Value, json};

/// What a file outside every directory a command may touch holds: it must never reach the output.
const SECRET: &str = "SECRET-7f3a9c-do-not-print";
/// No case takes this long; one that does is hung.
const HANG: Duration = Duration::from_secs(30);

/// Runs `command` to its end or to `limit` (then it is killed and the test fails), draining its
/// output as it runs (a history can be large).
fn run_within(mut command: Command, limit: Duration) -> (Run, Duration) {
    let started = Instant::now();
    let mut child =
        command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("evodb runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("hung: no exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let elapsed = started.elapsed();
    let run = Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&stdout.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&stderr.join().unwrap()).into_owned(),
    };
    (run, elapsed)
}

fn evodb_within<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Run {
    let mut evodb = command();
    evodb.args(args);
    run_within(evodb, HANG).0
}

/// Every file under `dir` (links as their targets' names, never followed) with its bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let Ok(entries) = fs::read_dir(dir) else { return files };
    for entry in entries.flatten() {
        let path = entry.path();
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            files.insert(path.clone(), fs::read_link(&path).unwrap().into_os_string().into_encoded_bytes());
        } else if kind.is_dir() {
            files.extend(tree(&path));
        } else if kind.is_file() {
            files.insert(path.clone(), fs::read(&path).unwrap());
        } else {
            files.insert(path.clone(), b"(special)".to_vec());
        }
    }
    files
}

fn fifo(path: &Path) {
    nix::unistd::mkfifo(path, nix::sys::stat::Mode::S_IRWXU).unwrap();
}

// --- sources ---------------------------------------------------------------------------------------

/// One OpenEvolve program file's JSON.
fn oe_program(id: &str, parent: Option<&str>, iteration: u64, metrics: Value) -> Value {
    json!({
        "id": id, "code": format!("def f():\n    return {iteration}\n"), "language": "python",
        "parent_id": parent, "iteration_found": iteration, "timestamp": 1_700_000_000.0 + iteration as f64,
        "metrics": metrics, "metadata": {"island": 0}, "changes_description": format!("step {iteration}"),
    })
}

/// An OpenEvolve checkpoint holding `programs` (on one island) at `dir`.
fn checkpoint(dir: &Path, programs: &[Value]) {
    fs::create_dir_all(dir.join("programs")).unwrap();
    let ids: Vec<&str> = programs.iter().filter_map(|p| p["id"].as_str()).collect();
    fs::write(dir.join("metadata.json"), json!({"islands": [ids], "archive": []}).to_string()).unwrap();
    for (i, program) in programs.iter().enumerate() {
        fs::write(dir.join(format!("programs/p{i:03}.json")), program.to_string()).unwrap();
    }
}

/// A good two-program checkpoint.
fn good_checkpoint(dir: &Path) {
    checkpoint(
        dir,
        &[
            oe_program("a", None, 0, json!({"combined_score": 0.25})),
            oe_program("b", Some("a"), 1, json!({"combined_score": 0.5})),
        ],
    );
}

const SHINKA_SCHEMA: &str = "
    CREATE TABLE programs (id TEXT, code TEXT, language TEXT, parent_id TEXT, generation INTEGER,
        timestamp REAL, combined_score REAL, public_metrics TEXT, private_metrics TEXT,
        text_feedback TEXT, correct INTEGER, metadata TEXT, island_idx INTEGER);
    CREATE TABLE archive (program_id TEXT);";

/// A ShinkaEvolve-shaped SQLite file at `path`, made by `sql` (e.g. the schema and rows).
fn sqlite(path: &Path, sql: &str) {
    let connection = rusqlite::Connection::open(path).unwrap();
    connection.execute_batch(sql).unwrap();
}

/// The schema with two good programs, then `more` SQL.
fn shinka(path: &Path, more: &str) {
    sqlite(
        path,
        &format!(
            "{SHINKA_SCHEMA}
            INSERT INTO programs VALUES ('g0', 'def f():\n    return 0\n', 'python', NULL, 0, 1700000000.0, 0.2,
                '{{\"accuracy\": 0.2}}', '{{}}', '', 1, '{{}}', 0);
            INSERT INTO programs VALUES ('g1', 'def f():\n    return 1\n', 'python', 'g0', 1, 1700000001.0, 0.4,
                '{{\"accuracy\": 0.4}}', '{{}}', '', 1, '{{\"patch_name\": \"p1\"}}', 0);
            {more}"
        ),
    );
}

// --- the catalogue ---------------------------------------------------------------------------------

/// Where a case runs: `source` (a run of another tool, made by the setup), `db` (the import's
/// destination, or the database of a store case), `outside` (holds `victim.txt` and
/// `victim.json`, which hold [`SECRET`] and must stay as they are).
struct Scratch {
    _root: tempfile::TempDir,
    source: PathBuf,
    db: PathBuf,
    outside: PathBuf,
}

impl Scratch {
    fn new() -> Scratch {
        let root = tempfile::tempdir().unwrap();
        let outside = root.path().join("outside");
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("victim.txt"), format!("{SECRET}\n")).unwrap();
        let victim = json!({"id": "victim", "code": SECRET, "metrics": {"combined_score": 1.0}});
        fs::write(outside.join("victim.json"), victim.to_string()).unwrap();
        let (source, db) = (root.path().join("run"), root.path().join("db"));
        Scratch { source, db, outside, _root: root }
    }

    fn s(path: &Path) -> String {
        path.to_str().unwrap().to_string()
    }

    /// `evodb import openevolve <source> <db>`, then `extra`.
    fn openevolve(&self, extra: &[&str]) -> Vec<String> {
        let mut args = vec!["import".into(), "openevolve".into(), Self::s(&self.source), Self::s(&self.db)];
        args.extend(extra.iter().map(ToString::to_string));
        args
    }

    fn sqlite_file(&self) -> PathBuf {
        self.source.join("evolution_db.sqlite")
    }

    /// `evodb import shinka <source>/evolution_db.sqlite <db>`, then `extra`.
    fn shinka(&self, extra: &[&str]) -> Vec<String> {
        let mut args = vec!["import".into(), "shinka".into(), Self::s(&self.sqlite_file()), Self::s(&self.db)];
        args.extend(extra.iter().map(ToString::to_string));
        args
    }

    /// A database at `db` with a seed, for the store's cases; its seed's id.
    fn seeded(&self) -> String {
        evodb(&seed_args(&self.db)).json()["id"].as_str().unwrap().to_string()
    }
}

struct Case {
    name: &'static str,
    /// Makes the source (and anything else) and returns the command's arguments.
    setup: fn(&Scratch) -> Vec<String>,
    code: i32,
    /// What stderr must contain (for a success: what stdout must contain).
    says: &'static str,
    /// The most the command may take (a time budget is spent, not waited out).
    within: Duration,
}

fn case(name: &'static str, code: i32, says: &'static str, setup: fn(&Scratch) -> Vec<String>) -> Case {
    Case { name, setup, code, says, within: HANG }
}

fn openevolve_cases() -> Vec<Case> {
    vec![
        case("a FIFO among OpenEvolve's programs", 1, "p001.json` is a FIFO, not a regular file", |s| {
            good_checkpoint(&s.source);
            fs::remove_file(s.source.join("programs/p001.json")).unwrap();
            fifo(&s.source.join("programs/p001.json"));
            s.openevolve(&[])
        }),
        case("a program file linked to /dev/zero", 1, "p001.json` is a symbolic link", |s| {
            good_checkpoint(&s.source);
            fs::remove_file(s.source.join("programs/p001.json")).unwrap();
            symlink("/dev/zero", s.source.join("programs/p001.json")).unwrap();
            s.openevolve(&[])
        }),
        case("a program file linked to a program outside the run", 1, "p001.json` is a symbolic link", |s| {
            good_checkpoint(&s.source);
            fs::remove_file(s.source.join("programs/p001.json")).unwrap();
            symlink(s.outside.join("victim.json"), s.source.join("programs/p001.json")).unwrap();
            s.openevolve(&[])
        }),
        case("a program file linked to another inside the run", 1, "is a symbolic link", |s| {
            good_checkpoint(&s.source);
            fs::rename(s.source.join("programs/p001.json"), s.source.join("b.json")).unwrap();
            symlink("../b.json", s.source.join("programs/p001.json")).unwrap();
            s.openevolve(&[])
        }),
        case("metadata.json a FIFO", 1, "metadata.json` is a FIFO, not a regular file", |s| {
            good_checkpoint(&s.source);
            fs::remove_file(s.source.join("metadata.json")).unwrap();
            fifo(&s.source.join("metadata.json"));
            s.openevolve(&[])
        }),
        case("metadata.json linked to /dev/zero", 1, "metadata.json` is a symbolic link", |s| {
            good_checkpoint(&s.source);
            fs::remove_file(s.source.join("metadata.json")).unwrap();
            symlink("/dev/zero", s.source.join("metadata.json")).unwrap();
            s.openevolve(&[])
        }),
        case("metadata.json a directory", 1, "metadata.json` is a directory, not a regular file", |s| {
            good_checkpoint(&s.source);
            fs::remove_file(s.source.join("metadata.json")).unwrap();
            fs::create_dir(s.source.join("metadata.json")).unwrap();
            s.openevolve(&[])
        }),
        case("programs/ linked to a directory outside", 1, "programs` is a symbolic link", |s| {
            good_checkpoint(&s.source);
            fs::remove_dir_all(s.source.join("programs")).unwrap();
            fs::copy(s.outside.join("victim.json"), s.outside.join("p.json")).unwrap();
            symlink(&s.outside, s.source.join("programs")).unwrap();
            s.openevolve(&[])
        }),
        case("programs a file", 1, "programs`: it is not a directory", |s| {
            good_checkpoint(&s.source);
            fs::remove_dir_all(s.source.join("programs")).unwrap();
            fs::write(s.source.join("programs"), "x").unwrap();
            s.openevolve(&[])
        }),
        case("the latest checkpoint_<N> a link out of the run", 1, "checkpoint_9` is a symbolic link", |s| {
            good_checkpoint(&s.source.join("checkpoints/checkpoint_1"));
            let elsewhere = s.outside.join("checkpoint");
            good_checkpoint(&elsewhere);
            symlink(&elsewhere, s.source.join("checkpoints/checkpoint_9")).unwrap();
            s.openevolve(&[])
        }),
        case("a directory named like a program file", 1, "x.json` is a directory, not a regular file", |s| {
            good_checkpoint(&s.source);
            fs::create_dir(s.source.join("programs/x.json")).unwrap();
            s.openevolve(&[])
        }),
        case("a socket named like a program file", 1, "s.json` is a socket, not a regular file", |s| {
            good_checkpoint(&s.source);
            std::mem::forget(std::os::unix::net::UnixListener::bind(s.source.join("programs/s.json")).unwrap());
            s.openevolve(&[])
        }),
        case("a sparse 8 GiB program file", 4, "import exceeded its memory cap (64 MiB) reading", |s| {
            good_checkpoint(&s.source);
            fs::File::create(s.source.join("programs/big.json")).unwrap().set_len(8 << 30).unwrap();
            s.openevolve(&["--memoryLimitMb", "64"])
        }),
        case("programs that add up past the memory cap", 4, "import exceeded its memory cap (1 MiB)", |s| {
            let code = "x = 1\n".repeat(30_000);
            let programs: Vec<Value> = (0..8)
                .map(|i| json!({"id": format!("p{i}"), "code": code, "metrics": {"combined_score": 0.5}}))
                .collect();
            checkpoint(&s.source, &programs);
            s.openevolve(&["--memoryLimitMb", "1"])
        }),
        case("a 300-byte metric name", 1, "is a 300-byte name; metric names are at most 256 bytes", |s| {
            let name = "m".repeat(300);
            checkpoint(&s.source, &[oe_program("a", None, 0, json!({"combined_score": 0.5, name: 1.0}))]);
            s.openevolve(&[])
        }),
        case("a 300-byte metric name holding a backtick", 1, "is a 301-byte name", |s| {
            let name = format!("`{}", "m".repeat(300));
            checkpoint(&s.source, &[oe_program("a", None, 0, json!({"combined_score": 0.5, name: 1.0}))]);
            s.openevolve(&[])
        }),
        case("an id holding a backtick, with no code", 1, "program `a'b` has no code", |s| {
            let mut program = oe_program("a`b", None, 0, json!({"combined_score": 0.5}));
            program["code"] = json!("");
            checkpoint(&s.source, &[program]);
            s.openevolve(&[])
        }),
        case("1,001 metrics", 1, "has more than 1000 names", |s| {
            let metrics: serde_json::Map<String, Value> = (0..1001).map(|i| (format!("m{i}"), json!(i))).collect();
            checkpoint(&s.source, &[oe_program("a", None, 0, Value::Object(metrics))]);
            s.openevolve(&[])
        }),
        case("a program with empty code", 1, "program `a` has no code (its `code` is empty)", |s| {
            let mut program = oe_program("a", None, 0, json!({"combined_score": 0.5}));
            program["code"] = json!("  \n");
            checkpoint(&s.source, &[program]);
            s.openevolve(&[])
        }),
        case("a program with an empty id", 1, "has an empty `id`", |s| {
            checkpoint(&s.source, &[oe_program("", None, 0, json!({"combined_score": 0.5}))]);
            s.openevolve(&[])
        }),
        case("one id in two program files", 1, "program id `a` appears twice", |s| {
            let a = oe_program("a", None, 0, json!({"combined_score": 0.5}));
            checkpoint(&s.source, &[a.clone(), a]);
            s.openevolve(&[])
        }),
        case("code over evodb's 1 MiB limit", 1, "program `a`: invalid input: `targetCode` is 1200000 bytes", |s| {
            let mut program = oe_program("a", None, 0, json!({"combined_score": 0.5}));
            program["code"] = json!("x".repeat(1_200_000));
            checkpoint(&s.source, &[program]);
            s.openevolve(&[])
        }),
        case("100 islands", 1, "does not fit in an evodb run (invalid config: `numIslands` is 100", |s| {
            good_checkpoint(&s.source);
            let islands: Vec<Vec<&str>> = (0..100).map(|_| Vec::new()).collect();
            fs::write(s.source.join("metadata.json"), json!({"islands": islands}).to_string()).unwrap();
            s.openevolve(&[])
        }),
        case("a program file that is not UTF-8", 1, "p001.json` is not UTF-8 text", |s| {
            good_checkpoint(&s.source);
            fs::write(s.source.join("programs/p001.json"), b"{\"id\": \"b\", \"code\": \"\xff\"}").unwrap();
            s.openevolve(&[])
        }),
        case("100,000 nested arrays as a program", 1, "p001.json` is not valid JSON", |s| {
            good_checkpoint(&s.source);
            fs::write(s.source.join("programs/p001.json"), "[".repeat(100_000)).unwrap();
            s.openevolve(&[])
        }),
        case("a time budget of 0", 4, "import exceeded its time budget (0 ms)", |s| {
            good_checkpoint(&s.source);
            s.openevolve(&["--timeBudgetMs", "0"])
        }),
        case("an id that climbs out of its code path", 0, "\"imported\":2", |s| {
            checkpoint(
                &s.source,
                &[
                    oe_program("../../../outside/x", None, 0, json!({"combined_score": 0.5})),
                    oe_program("/etc/passwd", Some("../../../outside/x"), 1, json!({"combined_score": 0.6})),
                ],
            );
            s.openevolve(&[])
        }),
        case("a 5 MB metric text", 0, "\"imported\":2", |s| {
            checkpoint(
                &s.source,
                &[
                    oe_program("a", None, 0, json!({"combined_score": 0.5, "log": "x".repeat(5 << 20)})),
                    oe_program("b", Some("a"), 1, json!({"combined_score": 0.6, "error": [1, {"deep": "y"}]})),
                ],
            );
            s.openevolve(&[])
        }),
        case("a program file linked, with the link named by the user", 0, "\"imported\":2", |s| {
            // The path the user names may itself be a link (their choice), as a database path may.
            let real = s.outside.join("run");
            good_checkpoint(&real);
            symlink(&real, &s.source).unwrap();
            s.openevolve(&[])
        }),
        case("the destination's lock a FIFO", 5, "cannot lock", |s| {
            good_checkpoint(&s.source);
            fs::create_dir(&s.db).unwrap();
            fifo(&s.db.join(".evodb.lock"));
            s.openevolve(&[])
        }),
        case("the destination's database.json a link out", 5, "database.json`: it is a symbolic link", |s| {
            good_checkpoint(&s.source);
            fs::create_dir(&s.db).unwrap();
            symlink(s.outside.join("victim.txt"), s.db.join("database.json")).unwrap();
            s.openevolve(&[])
        }),
    ]
}

fn shinka_cases() -> Vec<Case> {
    let quick = Duration::from_secs(10);
    vec![
        Case {
            name: "a recursive view as `programs` that never yields a row",
            setup: |s| {
                fs::create_dir(&s.source).unwrap();
                sqlite(
                    &s.sqlite_file(),
                    "CREATE VIEW programs AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
                     SELECT n AS id, 'x' AS code, NULL AS parent_id, 0 AS generation FROM r WHERE n < 0;",
                );
                s.shinka(&["--timeBudgetMs", "1000"])
            },
            code: 4,
            says: "import exceeded its time budget (1000 ms)",
            within: quick,
        },
        Case {
            name: "a recursive view as `programs` with endless rows",
            setup: |s| {
                fs::create_dir(&s.source).unwrap();
                sqlite(
                    &s.sqlite_file(),
                    "CREATE VIEW programs AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
                     SELECT 'p' || n AS id, 'x = 1' AS code, NULL AS parent_id, 0 AS generation FROM r;",
                );
                s.shinka(&["--timeBudgetMs", "1000"])
            },
            code: 4,
            says: "import exceeded its",
            within: quick,
        },
        Case {
            name: "a recursive view as `archive`",
            setup: |s| {
                fs::create_dir(&s.source).unwrap();
                sqlite(
                    &s.sqlite_file(),
                    &SHINKA_SCHEMA.replace(
                        "CREATE TABLE archive (program_id TEXT);",
                        "CREATE VIEW archive AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
                         SELECT n FROM r WHERE n < 0;",
                    ),
                );
                shinka_rows(&s.sqlite_file());
                s.shinka(&["--timeBudgetMs", "1000"])
            },
            code: 4,
            says: "import exceeded its time budget (1000 ms)",
            within: quick,
        },
        Case {
            name: "a view asking SQLite for a 100 MB blob under a 64 MiB cap",
            setup: |s| {
                fs::create_dir(&s.source).unwrap();
                sqlite(
                    &s.sqlite_file(),
                    "CREATE VIEW programs AS SELECT 'a' AS id, randomblob(100000000) AS code, NULL AS parent_id,
                     0 AS generation;",
                );
                s.shinka(&["--memoryLimitMb", "64"])
            },
            code: 4,
            says: "import exceeded its memory cap (64 MiB)",
            within: HANG,
        },
        case("no `programs` table", 1, "is not a ShinkaEvolve database (no such table: programs)", |s| {
            fs::create_dir(&s.source).unwrap();
            sqlite(&s.sqlite_file(), "CREATE TABLE other (x);");
            s.shinka(&[])
        }),
        case("no `generation` column", 1, "is not a ShinkaEvolve database", |s| {
            fs::create_dir(&s.source).unwrap();
            sqlite(&s.sqlite_file(), "CREATE TABLE programs (id TEXT, code TEXT, parent_id TEXT);");
            s.shinka(&[])
        }),
        case("code a BLOB that is not UTF-8", 1, "keeps its code as a BLOB that is not UTF-8 text", |s| {
            fs::create_dir(&s.source).unwrap();
            shinka(
                &s.sqlite_file(),
                "INSERT INTO programs (id, code, parent_id, generation) VALUES ('b', X'FF00FE', 'g0', 2);",
            );
            s.shinka(&[])
        }),
        case("code a BLOB of UTF-8 text", 0, "\"imported\":3", |s| {
            fs::create_dir(&s.source).unwrap();
            shinka(
                &s.sqlite_file(),
                "INSERT INTO programs (id, code, parent_id, generation, correct) VALUES ('b', CAST('x = 2' AS BLOB), 'g0', 2, 1);",
            );
            s.shinka(&[])
        }),
        case("ids that are numbers", 0, "\"imported\":2", |s| {
            fs::create_dir(&s.source).unwrap();
            sqlite(
                &s.sqlite_file(),
                "CREATE TABLE programs (id INTEGER, code TEXT, parent_id INTEGER, generation INTEGER, correct INTEGER);
                 INSERT INTO programs VALUES (1, 'x = 1', NULL, 0, 1);
                 INSERT INTO programs VALUES (2, 'x = 2', 1, 1, 1);",
            );
            s.shinka(&[])
        }),
        case("a row without an id", 1, "row 3 of `programs` has no `id` (it is NULL)", |s| {
            fs::create_dir(&s.source).unwrap();
            shinka(
                &s.sqlite_file(),
                "INSERT INTO programs (id, code, parent_id, generation) VALUES (NULL, 'x', 'g0', 2);",
            );
            s.shinka(&[])
        }),
        case("one id in two rows", 1, "program id `g1` appears twice", |s| {
            fs::create_dir(&s.source).unwrap();
            shinka(
                &s.sqlite_file(),
                "INSERT INTO programs (id, code, parent_id, generation) VALUES ('g1', 'x', 'g0', 2);",
            );
            s.shinka(&[])
        }),
        case("an infinite timestamp does not blame `now`", 0, "\"imported\":3", |s| {
            fs::create_dir(&s.source).unwrap();
            shinka(
                &s.sqlite_file(),
                "INSERT INTO programs (id, code, parent_id, generation, timestamp, correct) VALUES ('b', 'x', 'g0', 2, 9e999, 1);",
            );
            s.shinka(&[])
        }),
        case("a timestamp of text `inf` does not blame `now`", 0, "\"imported\":3", |s| {
            fs::create_dir(&s.source).unwrap();
            shinka(
                &s.sqlite_file(),
                "INSERT INTO programs (id, code, parent_id, generation, timestamp, correct) VALUES ('b', 'x', 'g0', 2, 'inf', 1);",
            );
            s.shinka(&[])
        }),
        case("an island index of 100", 1, "does not fit in an evodb run (invalid config: `numIslands` is 100", |s| {
            fs::create_dir(&s.source).unwrap();
            shinka(
                &s.sqlite_file(),
                "INSERT INTO programs (id, code, parent_id, generation, island_idx) VALUES ('b', 'x', 'g0', 2, 99);",
            );
            s.shinka(&[])
        }),
        case("1,001 public metrics", 1, "row 3 of `programs` in", |s| {
            fs::create_dir(&s.source).unwrap();
            let metrics: serde_json::Map<String, Value> = (0..1001).map(|i| (format!("m{i}"), json!(i))).collect();
            shinka(
                &s.sqlite_file(),
                &format!(
                    "INSERT INTO programs (id, code, parent_id, generation, public_metrics) VALUES ('b', 'x', 'g0', 2, '{}');",
                    Value::Object(metrics)
                ),
            );
            s.shinka(&[])
        }),
        case("a 300-byte private metric name", 1, "is a 308-byte name", |s| {
            fs::create_dir(&s.source).unwrap();
            shinka(
                &s.sqlite_file(),
                &format!(
                    "INSERT INTO programs (id, code, parent_id, generation, private_metrics) VALUES ('b', 'x', 'g0', 2, '{{\"{}\": 1}}');",
                    "m".repeat(300)
                ),
            );
            s.shinka(&[])
        }),
        case("rows past the memory cap", 4, "import exceeded its memory cap (1 MiB)", |s| {
            fs::create_dir(&s.source).unwrap();
            shinka(
                &s.sqlite_file(),
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 20)
                 INSERT INTO programs (id, code, parent_id, generation) SELECT 'r' || n, hex(zeroblob(60000)), 'g0', 2 FROM r;",
            );
            s.shinka(&["--memoryLimitMb", "1"])
        }),
        case("the SQLite file is /dev/zero", 1, "`/dev/zero` is a device, not a regular file", |s| {
            vec!["import".into(), "shinka".into(), "/dev/zero".into(), Scratch::s(&s.db)]
        }),
        case("the SQLite file is a FIFO", 1, "is a FIFO, not a regular file", |s| {
            fs::create_dir(&s.source).unwrap();
            fifo(&s.sqlite_file());
            s.shinka(&[])
        }),
        case("the SQLite file is a directory", 1, "is a directory, not a regular file", |s| {
            fs::create_dir_all(s.sqlite_file()).unwrap();
            s.shinka(&[])
        }),
        case("a FIFO as the WAL beside it", 1, "evolution_db.sqlite-wal` is a FIFO, not a regular file", |s| {
            fs::create_dir(&s.source).unwrap();
            shinka(&s.sqlite_file(), "");
            fifo(&s.source.join("evolution_db.sqlite-wal"));
            s.shinka(&[])
        }),
        case("a hot journal linked out", 1, "evolution_db.sqlite-journal` is a symbolic link", |s| {
            fs::create_dir(&s.source).unwrap();
            shinka(&s.sqlite_file(), "");
            symlink(s.outside.join("victim.txt"), s.source.join("evolution_db.sqlite-journal")).unwrap();
            s.shinka(&[])
        }),
        case("a text file as the SQLite file", 1, "is not a ShinkaEvolve database (file is not a database)", |s| {
            fs::create_dir(&s.source).unwrap();
            fs::write(s.sqlite_file(), format!("{SECRET}\n").repeat(100)).unwrap();
            s.shinka(&[])
        }),
        case("an SQLite error quoting a backtick", 1, "is not a ShinkaEvolve database", |s| {
            fs::create_dir(&s.source).unwrap();
            sqlite(&s.sqlite_file(), "CREATE VIEW programs AS SELECT * FROM \"gone`table\";");
            s.shinka(&[])
        }),
        case("a time budget of 0 on shinka", 4, "import exceeded its time budget (0 ms)", |s| {
            fs::create_dir(&s.source).unwrap();
            shinka(&s.sqlite_file(), "");
            s.shinka(&["--timeBudgetMs", "0"])
        }),
    ]
}

/// The two good rows of [`shinka`], into a file that has the schema.
fn shinka_rows(path: &Path) {
    let connection = rusqlite::Connection::open(path).unwrap();
    connection
        .execute_batch(
            "INSERT INTO programs (id, code, parent_id, generation, correct) VALUES ('g0', 'x = 0', NULL, 0, 1);
             INSERT INTO programs (id, code, parent_id, generation, correct) VALUES ('g1', 'x = 1', 'g0', 1, 1);",
        )
        .unwrap();
}

/// The store's first surfaces, rechecked: files of the database directory that are not files.
fn store_cases() -> Vec<Case> {
    fn add(s: &Scratch) -> Vec<String> {
        let parent = s.seeded();
        add_args(&s.db, &parent, 1, 0.5)
    }
    vec![
        case("a FIFO at .evodb.lock", 5, ".evodb.lock`: it is a FIFO, not a regular file; move it away", |s| {
            let args = add(s);
            fs::remove_file(s.db.join(".evodb.lock")).unwrap();
            fifo(&s.db.join(".evodb.lock"));
            args
        }),
        case("a directory at .evodb.lock", 5, ".evodb.lock`: it is a directory, not a regular file", |s| {
            let args = add(s);
            fs::remove_file(s.db.join(".evodb.lock")).unwrap();
            fs::create_dir(s.db.join(".evodb.lock")).unwrap();
            args
        }),
        case(
            "a link at .evodb.lock to a file outside",
            5,
            ".evodb.lock`: it is a symbolic link, not a regular file",
            |s| {
                let args = add(s);
                fs::remove_file(s.db.join(".evodb.lock")).unwrap();
                symlink(s.outside.join("victim.txt"), s.db.join(".evodb.lock")).unwrap();
                args
            },
        ),
        case("a dangling link at .evodb.lock", 5, "is a symbolic link", |s| {
            let args = add(s);
            fs::remove_file(s.db.join(".evodb.lock")).unwrap();
            symlink(s.outside.join("created-by-evodb"), s.db.join(".evodb.lock")).unwrap();
            args
        }),
        case("a directory at database.json.tmp", 0, "\"lastIteration\":2", |s| {
            let args = add(s);
            fs::create_dir(s.db.join("database.json.tmp")).unwrap();
            args
        }),
        case("a FIFO at database.json.tmp", 0, "\"lastIteration\":2", |s| {
            let args = add(s);
            fifo(&s.db.join("database.json.tmp"));
            args
        }),
        case("a link at database.json.tmp to a file outside", 0, "\"lastIteration\":2", |s| {
            let args = add(s);
            symlink(s.outside.join("victim.txt"), s.db.join("database.json.tmp")).unwrap();
            args
        }),
        case("a link at database.json.prev to a file outside", 0, "\"lastIteration\":2", |s| {
            let args = add(s);
            symlink(s.outside.join("victim.txt"), s.db.join("database.json.prev")).unwrap();
            args
        }),
        case("a link at history.ndjson, on history", 5, "history.ndjson`: it is a symbolic link", |s| {
            s.seeded();
            fs::remove_file(s.db.join("history.ndjson")).unwrap();
            symlink(s.outside.join("victim.txt"), s.db.join("history.ndjson")).unwrap();
            vec!["history".into(), Scratch::s(&s.db), "--tail".into(), "1".into()]
        }),
        case("a FIFO at history.ndjson, on history --tail", 5, "history.ndjson`: it is a FIFO", |s| {
            s.seeded();
            fs::remove_file(s.db.join("history.ndjson")).unwrap();
            fifo(&s.db.join("history.ndjson"));
            vec!["history".into(), Scratch::s(&s.db), "--tail".into(), "1".into()]
        }),
        case("history --tail on a history that is not UTF-8", 1, "history.ndjson is not UTF-8 text", |s| {
            s.seeded();
            let mut history = fs::read(s.db.join("history.ndjson")).unwrap();
            history.extend_from_slice(b"{\"x\": \"\xff\"}\n");
            fs::write(s.db.join("history.ndjson"), history).unwrap();
            vec!["history".into(), Scratch::s(&s.db), "--tail".into(), "1".into()]
        }),
    ]
}

fn check(case: &Case) {
    let scratch = Scratch::new();
    let args = (case.setup)(&scratch);
    let db_existed = scratch.db.exists();
    // The destination as it was, but for the writer's lock file (every writer creates it).
    let destination = || {
        let mut files = tree(&scratch.db);
        files.retain(|path, _| !path.ends_with(".evodb.lock"));
        files
    };
    let db_before = destination();
    let outside = tree(&scratch.outside);
    let mut evodb = command();
    evodb.args(&args);
    let (run, took) = run_within(evodb, case.within + Duration::from_secs(5));
    let label = format!("{}: {run:?} after {took:?}", case.name);
    assert_ne!(run.code, 101, "panicked: {label}");
    assert!(!run.stderr.contains("panicked"), "panicked: {label}");
    assert_eq!(run.code, case.code, "exit code of {label}");
    let said = if case.code == 0 { &run.stdout } else { &run.stderr };
    assert!(said.contains(case.says), "should say {:?}: {label}", case.says);
    assert!(took <= case.within, "took {took:?}, more than {:?}: {label}", case.within);
    assert_eq!(run.stderr.matches('`').count() % 2, 0, "unbalanced backticks: {label}");
    assert!(!run.stderr.contains("this is a bug in evodb"), "{label}");
    assert!(!run.stdout.contains(SECRET) && !run.stderr.contains(SECRET), "the secret leaked: {label}");
    assert_eq!(tree(&scratch.outside), outside, "a file outside changed: {label}");
    let leftovers: Vec<_> = fs::read_dir(&scratch.db)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("database.json.tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "temp files left: {leftovers:?}: {label}");
    if args[0] == "import" {
        if case.code == 0 {
            let validate = evodb_within(&["validate", scratch.db.to_str().unwrap()]);
            assert_eq!(validate.code, 0, "the imported run is valid: {validate:?}: {label}");
        } else {
            assert_eq!(destination(), db_before, "a refused import stored something: {label}");
            assert_eq!(scratch.db.exists(), db_existed, "a refused import left a directory: {label}");
        }
    }
}

#[test]
fn the_hostile_catalogue_is_refused_by_name_without_hanging_panicking_or_touching_anything_outside() {
    let cases: Vec<Case> = openevolve_cases().into_iter().chain(shinka_cases()).chain(store_cases()).collect();
    let mut names: Vec<&str> = cases.iter().map(|c| c.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), cases.len(), "case names are unique");
    // Every case runs; the failures are listed together at the end.
    let failed: Vec<&str> = cases
        .iter()
        .filter(|case| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(case))).is_err())
        .map(|case| case.name)
        .collect();
    assert!(failed.is_empty(), "{} of {} cases failed: {failed:#?}", failed.len(), cases.len());
    println!(
        "hostile import and store: {} cases, each with its exit code and message, nothing outside changed",
        cases.len()
    );
}

// --- the first surfaces: a full disk, a long history ------------------------------------------------

/// `evodb args…` under `ulimit -f <kib>` with SIGXFSZ ignored: a write past the limit fails with
/// EFBIG, as one on a full disk fails with ENOSPC.
fn evodb_with_file_limit(kib: u64, args: &[String]) -> Run {
    let mut bash = Command::new("bash");
    bash.arg("-c")
        .arg(format!("trap '' XFSZ; ulimit -f {kib}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_evodb"))
        .args(args);
    run_within(bash, HANG).0
}

/// A database whose history is far larger than its `database.json` (a long run of samples): a
/// limit between the two lets the database's temp file be written and the history append fail.
fn database_with_a_long_history(db: &Path) -> String {
    let parent = evodb(&seed_args(db)).json()["id"].as_str().unwrap().to_string();
    let mut history = fs::read_to_string(db.join("history.ndjson")).unwrap();
    let line = json!({"event": "note", "kind": "lesson", "text": "x".repeat(1000)}).to_string();
    for _ in 0..200 {
        history.push_str(&line);
        history.push('\n');
    }
    fs::write(db.join("history.ndjson"), history).unwrap();
    parent
}

#[test]
fn a_disk_filling_up_at_the_history_append_stores_nothing_and_a_retry_adds_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let parent = database_with_a_long_history(&db);
    let before = tree(&db);
    let database_size = fs::metadata(db.join("database.json")).unwrap().len();
    let history_size = fs::metadata(db.join("history.ndjson")).unwrap().len();
    assert!(database_size * 4 < history_size, "{database_size} vs {history_size}");
    let limit = history_size / 1024; // room for database.json, none for the history's next lines

    let mut args = add_args(&db, &parent, 1, 0.5);
    args.extend(["--id".into(), "retried".into()]);
    let full = evodb_with_file_limit(limit, &args);
    assert_eq!(full.code, 5, "{full:?}");
    assert!(
        full.stderr.contains("cannot append to")
            && full.stderr.contains("history.ndjson")
            && full.stderr.contains("nothing was stored (database.json was put back as it was)"),
        "{full:?}"
    );
    assert_eq!(tree(&db), before, "a failed append stores nothing");

    // Space again: the retry is added, once.
    let retried = evodb(&args).json();
    assert_eq!(retried["id"], "retried");
    assert_eq!(retried["lastIteration"], 2, "the seed is iteration 1, the add iteration 2");
    let history = fs::read_to_string(db.join("history.ndjson")).unwrap();
    let added = history.lines().filter(|line| line.contains("\"event\":\"added\"") && line.contains("retried")).count();
    assert_eq!(added, 1, "one `added` event for the retried id");
    assert_eq!(evodb(&["validate", db.to_str().unwrap()]).code, 0);
}

#[test]
fn a_failed_append_that_cannot_be_undone_says_the_add_may_have_been_stored() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let parent = database_with_a_long_history(&db);
    // No hard link can be kept where a directory (not empty: it cannot be removed) holds the name.
    fs::create_dir_all(db.join("database.json.prev/x")).unwrap();
    let limit = fs::metadata(db.join("history.ndjson")).unwrap().len() / 1024;
    let mut args = add_args(&db, &parent, 1, 0.5);
    args.extend(["--id".into(), "retried".into()]);
    let full = evodb_with_file_limit(limit, &args);
    assert_eq!(full.code, 5, "{full:?}");
    assert!(full.stderr.contains("may or may not have been stored"), "{full:?}");
    assert!(full.stderr.contains("an add retried with the same --id is answered, not added twice"), "{full:?}");
    // The retry with the same id is answered from the stored program, not added a second time.
    let retried = evodb(&args).json();
    assert_eq!(retried["id"], "retried");
    let database: Value = serde_json::from_slice(&fs::read(db.join("database.json")).unwrap()).unwrap();
    assert_eq!(database["programs"].as_object().unwrap().len(), 2, "{database}");
    assert_eq!(database["lastIteration"], 2);
}

#[test]
fn a_disk_filling_up_while_the_database_is_written_stores_nothing_and_leaves_no_temp_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let parent = evodb(&seed_args(&db)).json()["id"].as_str().unwrap().to_string();
    let mut args = add_args(&db, &parent, 1, 0.5);
    let code = dir.path().join("big.py");
    fs::write(&code, "x = 1\n".repeat(50_000)).unwrap(); // 300 KB of code: database.json outgrows the limit
    let at = args.iter().position(|a| a == "--targetCode").unwrap();
    args[at] = "--targetCodeFile".into();
    args[at + 1] = code.to_str().unwrap().into();
    let before = tree(&db);
    let full = evodb_with_file_limit(100, &args);
    assert_eq!(full.code, 5, "{full:?}");
    assert!(full.stderr.contains("cannot write") && full.stderr.contains("database.json.tmp-"), "{full:?}");
    assert_eq!(tree(&db), before, "nothing stored, no temp file left");
}

#[test]
fn history_tail_1_on_a_140_mb_history_reads_only_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    evodb(&seed_args(&db)).json();
    let line = format!("{}\n", json!({"event": "note", "kind": "lesson", "text": "y".repeat(1400)}));
    let mut history = fs::read(db.join("history.ndjson")).unwrap();
    while history.len() < 140 << 20 {
        history.extend_from_slice(line.as_bytes());
    }
    history.extend_from_slice(b"{\"event\":\"last\"}\n");
    fs::write(db.join("history.ndjson"), &history).unwrap();

    let mut tail = command();
    tail.args(["history", db.to_str().unwrap(), "--tail", "1"]);
    let (run, took) = run_within(tail, HANG);
    assert_eq!((run.code, run.stdout.as_str()), (0, "{\"event\":\"last\"}\n"), "{run:?}");
    assert!(took < Duration::from_secs(5), "took {took:?}");

    let mut two = command();
    two.args(["history", db.to_str().unwrap(), "--tail", "2"]);
    let run = run_within(two, HANG).0;
    assert_eq!(run.stdout, format!("{line}{{\"event\":\"last\"}}\n"));

    // The whole of it is read by the host too (no limit on what the component hands back), and
    // under a smaller memory cap it is the cap that says no, not a bug.
    let mut all = command();
    all.args(["history", db.to_str().unwrap()]);
    let run = run_within(all, HANG).0;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.len(), history.len());
    let mut capped = command();
    capped.args(["history", db.to_str().unwrap(), "--memoryLimitMb", "64"]);
    let run = run_within(capped, HANG).0;
    assert_eq!(run.code, 4, "{run:?}");
    assert!(run.stderr.contains("exceeded its memory cap (64 MiB)"), "{run:?}");
}

#[test]
fn an_imported_id_never_becomes_a_path_out_of_its_code_directory() {
    let scratch = Scratch::new();
    checkpoint(&scratch.source, &[oe_program("../../x", None, 0, json!({"combined_score": 0.5}))]);
    evodb(&scratch.openevolve(&[])).json();
    let database: Value = serde_json::from_slice(&fs::read(scratch.db.join("database.json")).unwrap()).unwrap();
    let program = &database["programs"]["../../x"];
    assert_eq!(program["codePath"], "openevolve/_.._.._x.py");
}
