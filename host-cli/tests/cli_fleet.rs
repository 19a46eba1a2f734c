//! Operating a fleet's runs on PostgreSQL: `evodb runs --store URL` lists them and deletes or
//! renames one; a misspelled `--run` is refused by every command that does not make a run, with
//! nothing created; sessions carry `application_name`; and a run works through pgbouncer in
//! transaction mode, where named prepared statements would not.

use crate::cli;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use cli::postgres::{Bouncer, Cluster};
use cli::server::Server;
use cli::{Run, command, evodb};
use serde_json::Value;

fn evodb_bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_evodb"))
}

/// `evodb <command> --store <url> --run <run> <rest…>`.
fn on(url: &str, run: &str, command: &str, rest: &[&str]) -> Run {
    let mut args = vec![command, "--store", url, "--run", run];
    args.extend_from_slice(rest);
    evodb(&args)
}

/// Seeds `run`; the seed's id.
fn seed(url: &str, run: &str) -> String {
    let out = on(
        url,
        run,
        "seed",
        &["--codePath", "f.py", "--targetCode", "def f():\n    return 0\n", "--metrics", r#"{"score": 0.1}"#],
    );
    out.json()["id"].as_str().unwrap().to_string()
}

/// `add`'s flags for candidate `i` of `parent`.
fn add_flags(parent: &str, i: usize) -> Vec<String> {
    let code = format!("def f():\n    return {i}\n");
    let metrics = format!(r#"{{"score": 0.{i}}}"#);
    let flags =
        ["--codePath", "f.py", "--targetCode", &code, "--metrics", &metrics, "--changes", "c", "--parentId", parent];
    flags.iter().map(ToString::to_string).collect()
}

fn add(url: &str, run: &str, parent: &str, i: usize) -> Run {
    let flags = add_flags(parent, i);
    on(url, run, "add", &flags.iter().map(String::as_str).collect::<Vec<_>>())
}

/// `evodb add --store <url> --run <run> …` as a command, for a server's client or a child.
fn add_args<'a>(url: &'a str, run: &'a str, flags: &'a [String]) -> Vec<&'a str> {
    let mut args = vec!["add", "--store", url, "--run", run];
    args.extend(flags.iter().map(String::as_str));
    args
}

/// `evodb runs --store <url> <rest…>`.
fn runs(url: &str, rest: &[&str]) -> Run {
    let mut args = vec!["runs", "--store", url];
    args.extend_from_slice(rest);
    evodb(&args)
}

fn names(url: &str) -> Vec<String> {
    let listed = runs(url, &[]).json();
    listed.as_array().unwrap().iter().map(|run| run["name"].as_str().unwrap().to_string()).collect()
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn runs_on_a_store_are_listed_renamed_and_deleted() {
    let Some(cluster) = Cluster::start() else { return };
    let url = cluster.url();
    assert_eq!(runs(&url, &[]).json(), Value::Array(Vec::new()), "a database holding no run lists none");
    let first = seed(&url, "exp-1");
    for i in 1..=3 {
        assert_eq!(add(&url, "exp-1", &first, i).code, 0);
    }
    let second = seed(&url, "exp-2");

    let listed = runs(&url, &[]).json();
    let list = listed.as_array().unwrap();
    assert_eq!(list.len(), 2, "{listed}");
    assert_eq!(list[0]["name"], "exp-1");
    assert_eq!(list[0]["programs"], 4);
    assert_eq!(list[1]["programs"], 1);
    assert!(list[0]["events"].as_i64().unwrap() >= 4, "{listed}");
    assert!(list[0]["bytes"].as_i64().unwrap() > list[1]["bytes"].as_i64().unwrap(), "{listed}");
    for field in ["created", "lastWrite"] {
        let when = list[0][field].as_str().unwrap();
        assert!(when.len() == 27 && when.ends_with('Z') && when.as_bytes()[10] == b'T', "{field}: {when}");
    }
    assert!(list[0]["lastWrite"].as_str() >= list[0]["created"].as_str());
    // A postgres:// URL in <dir>'s place lists the same.
    assert_eq!(evodb(&["runs", &url]).json(), listed);

    // Rename: the events follow, the population is the same, the old name is gone.
    let history = on(&url, "exp-2", "history", &[]).stdout;
    let renamed = runs(&url, &["--rename", "exp-2", "--to", "baseline"]).json();
    assert_eq!(renamed["renamed"], "exp-2");
    assert_eq!(renamed["to"]["name"], "baseline");
    assert_eq!(names(&url), ["baseline", "exp-1"]);
    assert_eq!(on(&url, "baseline", "info", &[]).json()["programCount"], 1);
    assert_eq!(on(&url, "baseline", "history", &[]).stdout, history, "the events follow the run");
    assert_eq!(add(&url, "baseline", &second, 7).code, 0, "the renamed run takes writes");
    let refused = on(&url, "exp-2", "info", &[]);
    assert_eq!(refused.code, 3, "{refused:?}");
    // Onto a name in use, from a name not there: refused, nothing changed.
    let taken = runs(&url, &["--rename", "baseline", "--to", "exp-1"]);
    assert_eq!(taken.code, 1, "{taken:?}");
    assert!(taken.stderr.contains("already at"), "{taken:?}");
    let missing = runs(&url, &["--rename", "basline", "--to", "x"]);
    assert_eq!(missing.code, 3, "{missing:?}");
    assert!(missing.stderr.contains("no run named `basline`") && missing.stderr.contains("`baseline`"), "{missing:?}");
    assert_eq!(names(&url), ["baseline", "exp-1"]);
    // The foreign key cascades: an operator's own UPDATE of a run's name works too.
    let mut admin = cluster.client();
    admin.execute("UPDATE evodb.runs SET name = 'renamed-by-sql' WHERE name = 'baseline'", &[]).unwrap();
    assert_eq!(on(&url, "renamed-by-sql", "info", &[]).json()["programCount"], 2);

    // Names reach SQL as parameters: quotes and semicolons are a name like any other.
    let hostile = "x'; DROP TABLE evodb.events; --";
    let out = runs(&url, &["--delete", hostile]);
    assert_eq!(out.code, 3, "{out:?}");
    seed(&url, hostile);
    assert!(names(&url).contains(&hostile.to_string()));
    assert_eq!(runs(&url, &["--delete", hostile]).json()["deleted"]["name"], hostile);
    // Names that are no run name: usage errors, before anything is touched.
    for bad in ["", "a\u{7}b"] {
        let out = runs(&url, &["--delete", bad]);
        assert_eq!(out.code, 2, "{bad:?}: {out:?}");
    }
    let out = runs(&url, &["--rename", "exp-1"]);
    assert_eq!(out.code, 2, "--rename needs --to: {out:?}");

    // Delete: the run and its events go; the others stay.
    let deleted = runs(&url, &["--delete", "renamed-by-sql"]).json();
    assert_eq!(deleted["deleted"]["name"], "renamed-by-sql");
    assert_eq!(names(&url), ["exp-1"]);
    let left: i64 =
        admin.query_one("SELECT count(*) FROM evodb.events WHERE run = 'renamed-by-sql'", &[]).unwrap().get(0);
    assert_eq!(left, 0, "its events are deleted with it");
    let again = runs(&url, &["--delete", "renamed-by-sql"]);
    assert_eq!(again.code, 3, "{again:?}");
    assert_eq!(on(&url, "exp-1", "validate", &[]).code, 0);

    // A directory keeps evoidea's list, and refuses --delete and --rename.
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(evodb(&["runs", dir.path().to_str().unwrap()]).json(), Value::Array(Vec::new()));
    let out = evodb(&["runs", dir.path().to_str().unwrap(), "--delete", "x"]);
    assert_eq!(out.code, 2, "{out:?}");
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn a_misspelled_run_is_refused_and_nothing_is_created() {
    let Some(cluster) = Cluster::start() else { return };
    let url = cluster.url();
    seed(&url, "exp-1");
    let typo = "exp-l";
    let flags = add_flags("no-such-parent", 1);
    let code: Vec<&str> = flags.iter().map(String::as_str).collect();
    let commands: [(&str, &[&str]); 12] = [
        ("add", &code),
        ("sample", &[]),
        ("plan", &["4"]),
        ("note", &["--kind", "lesson", "--text", "t"]),
        ("remeasure", &["--id", "x", "--metrics", r#"{"score": 1}"#]),
        ("info", &[]),
        ("best", &[]),
        ("stats", &[]),
        ("history", &[]),
        ("export", &[]),
        ("should-stop", &[]),
        ("admit", &["--code", "x = 1\n"]),
    ];
    for (command, rest) in commands {
        let out = on(&url, typo, command, rest);
        assert_eq!(out.code, 3, "{command}: {out:?}");
        assert!(out.stderr.contains("no run named `exp-l`"), "{command}: {out:?}");
        assert!(out.stderr.contains("did you mean `exp-1`?"), "{command}: {out:?}");
        assert!(out.stderr.contains("evodb init"), "{command}: the fix is named: {out:?}");
        assert_eq!(names(&url), ["exp-1"], "{command} created nothing");
    }
    // Through `evodb serve` too: a server kept on the misspelled run refuses its writers.
    let server = Server::start(evodb_bin(), &url, typo);
    let out = Run::from(server.command(evodb_bin(), &["sample", "--store", &url, "--run", typo]).output().unwrap());
    assert_eq!(out.code, 3, "{out:?}");
    assert_eq!(names(&url), ["exp-1"], "nothing created through the server");
    drop(server);
    // The commands that make a run still make one.
    seed(&url, "made-by-seed");
    assert_eq!(on(&url, "made-by-init", "init", &[]).code, 0);
    assert_eq!(names(&url), ["exp-1", "made-by-init", "made-by-seed"]);
    // A directory keeps the seed's contract: a writer makes the database, with a warning.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let out = evodb(&["sample", db.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("creating a new one"), "{out:?}");
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn sessions_are_named_after_evodb_and_the_command() {
    let Some(cluster) = Cluster::start() else { return };
    let url = cluster.url();
    let parent = seed(&url, "named");
    let version = env!("CARGO_PKG_VERSION");
    let mut admin = cluster.client();
    // An `add` waiting for the run's lock (held here) shows in pg_stat_activity.
    admin.execute("SELECT pg_advisory_lock($1, hashtext('named'))", &[&0x6576_6f64_i32]).unwrap();
    let flags = add_flags(&parent, 2);
    let args = add_args(&url, "named", &flags);
    let mut child = command().args(&args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let seen = wait_for_session(&mut admin, &format!("evodb/{version} add"));
    admin.execute("SELECT pg_advisory_unlock($1, hashtext('named'))", &[&0x6576_6f64_i32]).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(seen, "pg_stat_activity showed no `evodb/{version} add` session");
    // `evodb serve` keeps one connection per lane (its writers', its readers'), named after it,
    // across the commands it answers.
    let server = Server::start(evodb_bin(), &url, "named");
    for i in 0..3 {
        let out =
            Run::from(server.command(evodb_bin(), &["info", "--store", &url, "--run", "named"]).output().unwrap());
        assert_eq!(out.code, 0, "{out:?}");
        let flags = add_flags(&parent, 10 + i);
        let out = Run::from(server.command(evodb_bin(), &add_args(&url, "named", &flags)).output().unwrap());
        assert_eq!(out.code, 0, "{out:?}");
    }
    assert!(wait_for_session(&mut admin, &format!("evodb/{version} serve")));
    let served: i64 = admin
        .query_one(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1",
            &[&format!("evodb/{version} serve")],
        )
        .unwrap()
        .get(0);
    assert_eq!(served, 2, "the server reuses its two connections");
    drop(server);
    // The URL's own application_name wins.
    let mine = format!("{url}?application_name=mine");
    admin.execute("SELECT pg_advisory_lock($1, hashtext('named'))", &[&0x6576_6f64_i32]).unwrap();
    let flags = add_flags(&parent, 3);
    let args = add_args(&mine, "named", &flags);
    let mut child = command().args(&args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let seen = wait_for_session(&mut admin, "mine");
    admin.execute("SELECT pg_advisory_unlock($1, hashtext('named'))", &[&0x6576_6f64_i32]).unwrap();
    let _ = child.wait();
    assert!(seen);
}

/// Whether a session named `name` shows in `pg_stat_activity` within 20 s (a bound on a wait,
/// not a timing: it is seen as soon as it connects).
fn wait_for_session(admin: &mut postgres::Client, name: &str) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        let count: i64 = admin
            .query_one("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", &[&name])
            .unwrap()
            .get(0);
        if count > 0 {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl) and pgbouncer: tests/run.sh runs it with --include-ignored"]
fn a_run_works_through_pgbouncer_in_transaction_mode() {
    let Some(cluster) = Cluster::start() else { return };
    // Two server connections for everyone: clients share them transaction by transaction.
    let Some(bouncer) = Bouncer::start(&cluster, 2) else { return };
    let url = bouncer.url();
    let parent = seed(&url, "pooled");
    let workers: Vec<_> = (0..6)
        .map(|w| {
            let (url, parent) = (url.clone(), parent.clone());
            std::thread::spawn(move || {
                for i in 0..8 {
                    let out = add(&url, "pooled", &parent, 10 + w * 8 + i);
                    assert_eq!(out.code, 0, "worker {w}, add {i}: {out:?}");
                    let sampled = on(&url, "pooled", "sample", &[]);
                    assert_eq!(sampled.code, 0, "worker {w}, sample {i}: {sampled:?}");
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    assert_eq!(on(&url, "pooled", "info", &[]).json()["programCount"], 49, "{}", bouncer.log());
    assert_eq!(on(&url, "pooled", "validate", &[]).code, 0);
    assert_eq!(names(&url), ["pooled"]);
    assert_eq!(runs(&url, &["--rename", "pooled", "--to", "pooled-2"]).code, 0);
    assert_eq!(runs(&url, &["--delete", "pooled-2"]).code, 0);
    // And `evodb serve` through it.
    let parent = seed(&url, "served");
    let server = Server::start(evodb_bin(), &url, "served");
    for i in 0..5 {
        let flags = add_flags(&parent, 100 + i);
        let args = add_args(&url, "served", &flags);
        let out = Run::from(server.command(evodb_bin(), &args).output().unwrap());
        assert_eq!(out.code, 0, "{out:?}");
    }
    assert_eq!(on(&url, "served", "info", &[]).json()["programCount"], 6);
}

/// `n` characters that compress about as little as code does (hex of a xorshift stream).
fn noise(seed: u64, n: usize) -> String {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from_digit((state % 16) as u32, 16).unwrap()
        })
        .collect()
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn snapshot_rewrites_do_not_grow_the_store() {
    let Some(cluster) = Cluster::start() else { return };
    let url = cluster.url();
    let parent = seed(&url, "big");
    let mut admin = cluster.client();
    let rewrites = |admin: &mut postgres::Client| -> i64 {
        admin.query_one("SELECT snapshot_seq FROM evodb.runs WHERE name = 'big'", &[]).unwrap().get(0)
    };
    let mut snapshots = Vec::new();
    for i in 0..150 {
        let code = format!("x = {i}  # {}\n", noise(i as u64, 12_000));
        let args = ["--codePath", "f.py", "--targetCode", &code, "--metrics", r#"{"score": 0.5}"#, "--changes", "c"];
        let mut flags: Vec<&str> = args.to_vec();
        flags.extend(["--parentId", &parent]);
        assert_eq!(on(&url, "big", "add", &flags).code, 0);
        let at = rewrites(&mut admin);
        if snapshots.last() != Some(&at) {
            snapshots.push(at);
        }
    }
    let (total, stored): (i64, i32) = {
        let row = admin
            .query_one(
                "SELECT pg_total_relation_size('evodb.snapshots'), pg_column_size(database) FROM evodb.snapshots \
                 WHERE run = 'big'",
                &[],
            )
            .unwrap();
        (row.get(0), row.get(1))
    };
    eprintln!("{} snapshots written; the last {stored} bytes; evodb.snapshots {total} bytes in all", snapshots.len());
    assert!(snapshots.len() >= 20, "the test rewrites the snapshot many times: {snapshots:?}");
    // Without reuse the table would hold every snapshot written (tens of times the last one);
    // reused, a few of them at most.
    assert!(total < 5 * i64::from(stored) + (1 << 20), "evodb.snapshots grew to {total} bytes");
    assert_eq!(on(&url, "big", "validate", &[]).code, 0);
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn a_schema_3_run_is_migrated_with_its_snapshot_and_events() {
    let Some(cluster) = Cluster::start() else { return };
    // A run as evodb of schema version 3 stored it: its snapshot in evodb.runs.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let db_text = db.to_str().unwrap();
    let out =
        evodb(&["seed", db_text, "--codePath", "f.py", "--targetCode", "x = 0\n", "--metrics", r#"{"score": 0.1}"#]);
    let parent = out.json()["id"].as_str().unwrap().to_string();
    for i in 1..=3 {
        let flags = add_flags(&parent, i);
        let mut args = vec!["add", db_text];
        args.extend(flags.iter().map(String::as_str));
        assert_eq!(evodb(&args).code, 0);
    }
    let database = std::fs::read(db.join("database.json")).unwrap();
    let history = std::fs::read_to_string(db.join("history.ndjson")).unwrap();
    let mut admin = cluster.client();
    admin
        .batch_execute(
            "CREATE SCHEMA evodb;
             CREATE TABLE evodb.meta (key text PRIMARY KEY, value text NOT NULL);
             INSERT INTO evodb.meta VALUES ('schema_version', '3');
             CREATE TABLE evodb.runs (name text PRIMARY KEY, database bytea NOT NULL, seq bigint NOT NULL,
                 snapshot_seq bigint NOT NULL, created timestamptz NOT NULL DEFAULT now(),
                 updated timestamptz NOT NULL DEFAULT now(), epoch bigint NOT NULL DEFAULT 0);
             CREATE TABLE evodb.events (run text NOT NULL REFERENCES evodb.runs (name) ON DELETE CASCADE,
                 seq bigint NOT NULL, line bytea NOT NULL, PRIMARY KEY (run, seq));",
        )
        .unwrap();
    let lines: Vec<&[u8]> = history.lines().map(str::as_bytes).collect();
    let seq = lines.len() as i64;
    admin
        .execute(
            "INSERT INTO evodb.runs (name, database, seq, snapshot_seq) VALUES ('old', $1, $2, $2)",
            &[&database, &seq],
        )
        .unwrap();
    for (i, line) in lines.iter().enumerate() {
        admin.execute("INSERT INTO evodb.events VALUES ('old', $1, $2)", &[&(i as i64 + 1), line]).unwrap();
    }
    let url = cluster.url();
    assert_eq!(on(&url, "old", "info", &[]).json()["programCount"], 4);
    assert_eq!(on(&url, "old", "history", &[]).stdout, history);
    let version: String =
        admin.query_one("SELECT value FROM evodb.meta WHERE key = 'schema_version'", &[]).unwrap().get(0);
    assert_eq!(version, "5");
    let moved: Vec<u8> = admin.query_one("SELECT database FROM evodb.snapshots WHERE run = 'old'", &[]).unwrap().get(0);
    assert_eq!(moved, database, "the snapshot moved byte for byte");
    let column: i64 = admin
        .query_one(
            "SELECT count(*) FROM information_schema.columns WHERE table_schema = 'evodb' AND table_name = 'runs' \
             AND column_name = 'database'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(column, 0, "evodb.runs no longer holds snapshots");
    // The migrated run takes writes, and renames carry its snapshot and events.
    assert_eq!(add(&url, "old", &parent, 9).code, 0);
    assert_eq!(runs(&url, &["--rename", "old", "--to", "new"]).code, 0);
    assert_eq!(on(&url, "new", "info", &[]).json()["programCount"], 5);
    assert_eq!(on(&url, "new", "validate", &[]).code, 0);
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn serve_answers_readers_while_a_writer_waits() {
    let Some(cluster) = Cluster::start() else { return };
    let url = cluster.url();
    let parent = seed(&url, "busy");
    let server = Server::start(evodb_bin(), &url, "busy");
    let mut admin = cluster.client();
    // Another machine holds the run's lock: the server's `add` waits for it.
    admin.execute("SELECT pg_advisory_lock($1, hashtext('busy'))", &[&0x6576_6f64_i32]).unwrap();
    let flags = add_flags(&parent, 5);
    // The server's own limits (a client with others runs by itself): the add waits up to 10 s.
    let args = add_args(&url, "busy", &flags);
    let mut writer = server.command(evodb_bin(), &args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let waiting = format!(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'evodb/{} serve' AND wait_event_type = 'Lock'",
        env!("CARGO_PKG_VERSION")
    );
    let start = Instant::now();
    while admin.query_one(&waiting, &[]).unwrap().get::<_, i64>(0) == 0 {
        assert!(start.elapsed() < Duration::from_secs(20), "the server's add never waited for the lock");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The server answers the reader itself, on its readers' lane, while its writer waits.
    let read = Run::from(server.command(evodb_bin(), &["info", "--store", &url, "--run", "busy"]).output().unwrap());
    assert_eq!(read.json()["programCount"], 1, "the reader sees what is committed");
    assert!(writer.try_wait().unwrap().is_none(), "the writer still waits: the reader went past it");
    assert!(server.log().contains("answered `info`: exit 0"), "{}", server.log());
    assert!(!server.log().contains("passed `info` back"), "{}", server.log());
    admin.execute("SELECT pg_advisory_unlock($1, hashtext('busy'))", &[&0x6576_6f64_i32]).unwrap();
    let written = writer.wait_with_output().unwrap();
    assert!(written.status.success(), "{}", String::from_utf8_lossy(&written.stderr));
    assert_eq!(on(&url, "busy", "info", &[]).json()["programCount"], 2);
}
