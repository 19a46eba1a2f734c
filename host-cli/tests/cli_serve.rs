//! `evodb serve` keeps a run's engine warm on one machine while other machines write to the run
//! directly (here: commands with `EVODB_SERVE=off`). Whatever happens to the run — others' adds
//! and snapshots, a database its events do not explain, the run deleted and made again, a
//! PostgreSQL restart, the server killed — what the server answers is what the run holds.

use crate::cli;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use cli::Run;
use cli::postgres::Cluster;
use cli::server::Server;
use evodb_host::Files;
use evodb_host::postgres::{PgFiles, PgRun, PgUrl};
use serde_json::Value;

const RUN: &str = "warm";

fn bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_evodb"))
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/seed-written")
}

/// A run of `evodb <command> --store … --run warm <rest…>`.
struct Calls<'a> {
    url: String,
    server: &'a Server,
}

impl Calls<'_> {
    fn args(&self, command: &str, rest: &[&str]) -> Vec<String> {
        let mut args = vec![command.to_string(), "--store".into(), self.url.clone(), "--run".into(), RUN.into()];
        args.extend(rest.iter().map(ToString::to_string));
        args
    }

    /// Through the server.
    fn served(&self, command: &str, rest: &[&str]) -> Run {
        Run::from(self.server.command(bin(), &self.args(command, rest)).output().unwrap())
    }

    /// Straight to PostgreSQL, as a writer on another machine.
    fn direct(&self, command: &str, rest: &[&str]) -> Run {
        Run::from(cli::command().args(self.args(command, rest)).env("EVODB_SERVE", "off").output().unwrap())
    }

    /// The run's database as the server and as a direct reader see it: the same bytes.
    fn assert_same(&self, when: &str) -> Value {
        let (served, direct) = (self.served("export", &[]), self.direct("export", &[]));
        assert_eq!(served.code, 0, "{when}: {served:?}");
        assert!(served.stdout == direct.stdout, "{when}: the server answers another database than the run's");
        serde_json::from_str(&served.stdout).unwrap()
    }
}

fn add_rest(i: usize, parent: &str) -> Vec<String> {
    let (code, metrics) = (format!("function score() {{ return {i}; }}"), format!(r#"{{"benchmark-score": 0.{i}}}"#));
    ["--codePath", "/s.js", "--targetCode", &code, "--parentId", parent, "--metrics", &metrics, "--changes", "c"]
        .map(String::from)
        .to_vec()
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn a_served_run_answers_what_the_run_holds() {
    let Some(cluster) = Cluster::start() else { return };
    let url = cluster.url();
    let copied = cli::evodb(&["copy", fixture().to_str().unwrap(), &url, "--run", RUN]);
    assert_eq!(copied.code, 0, "{copied:?}");
    let mut server = Server::start(bin(), &url, RUN);
    let calls = Calls { url: url.clone(), server: &server };
    let snapshot_seq = || {
        let row = cluster.client().query_one("SELECT snapshot_seq FROM evodb.runs WHERE name = $1", &[&RUN]);
        row.unwrap().get::<_, i64>(0)
    };

    // Others' samples, adds and snapshots between the server's own.
    let first_snapshot = snapshot_seq();
    let mut served_calls = 0;
    for i in 0..24 {
        let served = i % 3 != 2;
        let call = |command: &str, rest: &[&str]| match served {
            true => calls.served(command, rest),
            false => calls.direct(command, rest),
        };
        let sample = call("sample", &[]);
        assert_eq!(sample.code, 0, "{sample:?}");
        let parent = sample.json()["parent"]["id"].as_str().unwrap().to_string();
        let added = call("add", &strs(&add_rest(i, &parent)));
        assert_eq!(added.code, 0, "{added:?}");
        served_calls += if served { 3 } else { 1 };
        calls.assert_same(&format!("after step {i}"));
    }
    assert!(snapshot_seq() > first_snapshot, "no snapshot was stored on the way: the case tests less than it says");
    assert_eq!(calls.direct("validate", &[]).json()["valid"], true);
    assert_eq!(server.answered().len(), served_calls, "every served call was answered by the server");

    // A database its events do not explain (stored with none): the server loads it.
    let fixture_db = std::fs::read(fixture().join("database.json")).unwrap();
    let run = PgRun::new(PgUrl::parse(&url, Duration::from_secs(10)).unwrap(), RUN).unwrap();
    let mut files = PgFiles::open(&run, true).unwrap();
    files.commit(Some(&fixture_db), b"").unwrap();
    assert_eq!(calls.assert_same("after a database without events")["programs"].as_object().unwrap().len(), 46);

    // The run deleted and made again.
    cluster.client().execute("DELETE FROM evodb.runs WHERE name = $1", &[&RUN]).unwrap();
    assert_eq!(calls.direct("init", &["--rngSeed", "3"]).code, 0);
    let seeded = calls.direct("seed", &["--codePath", "/s.js", "--targetCode", "x", "--metrics", r#"{"s": 1}"#]);
    assert_eq!(seeded.code, 0, "{seeded:?}");
    assert_eq!(calls.assert_same("after the run was made again")["programs"].as_object().unwrap().len(), 1);

    // PostgreSQL restarted: the server connects again.
    cluster.restart();
    let seed_id = seeded.json()["id"].as_str().unwrap().to_string();
    let added = calls.served("add", &strs(&add_rest(1, &seed_id)));
    assert_eq!(added.code, 0, "{added:?}");
    calls.assert_same("after a restart");

    // A command reading standard input (either spelling) runs here, not in the server; so does
    // one asking for other sandbox limits than the server's.
    let before = server.answered().len();
    for (i, stdin_flag) in [vec!["--targetCodeFile", "-"], vec!["--targetCodeFile=-"]].into_iter().enumerate() {
        let mut rest = add_rest(2 + i, &seed_id);
        rest.splice(2..4, stdin_flag.into_iter().map(String::from));
        let mut add = server.command(bin(), &calls.args("add", &strs(&rest)));
        let mut child = add.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(format!("function score() {{ return {i}; }}").as_bytes()).unwrap();
        assert!(child.wait().unwrap().success());
    }
    let limited = calls.served("info", &["--timeBudgetMs", "5000"]);
    assert_eq!(limited.json()["programCount"], 4, "{limited:?}");
    assert_eq!(
        server.answered().len(),
        before,
        "a command reading standard input or with its own limits went to the server"
    );
    let database = calls.assert_same("after local adds");
    assert_eq!(database["programs"].as_object().unwrap().len(), 4);
    assert!(database.to_string().contains("return 1;"), "the code read from standard input was not stored");

    // A server left behind while others wrote past a snapshot catches up or loads: either way,
    // what the run holds.
    for i in 0..24 {
        assert_eq!(calls.direct("add", &strs(&add_rest(10 + i, &seed_id))).code, 0);
    }
    calls.assert_same("after the server was left behind");

    // One server per run; a directory is not served.
    let second = Run::from(server.command(bin(), &["serve", &url, "--run", RUN]).output().unwrap());
    assert!(second.code == 2 && second.stderr.contains("served already"), "{second:?}");
    let scratch = tempfile::tempdir().unwrap();
    let on_dir = cli::evodb(&["serve", scratch.path().to_str().unwrap()]);
    assert!(on_dir.code == 2 && on_dir.stderr.contains("PostgreSQL"), "{on_dir:?}");

    // The server killed: its socket is stale, commands run here; a new server takes the socket.
    drop(calls);
    server.kill();
    let calls = Calls { url: url.clone(), server: &server };
    assert_eq!(calls.served("info", &[]).json()["programCount"], 28, "a stale socket is passed by");
    drop(calls);
    server.restart();
    let before = server.answered().len();
    let calls = Calls { url, server: &server };
    calls.assert_same("after the server was started again");
    assert_eq!(server.answered().len(), before + 1);

    // SIGTERM: it stops and takes its socket with it.
    drop(calls);
    assert_eq!(server.sockets().len(), 1);
    assert_eq!(server.terminate(), Some(130));
    assert_eq!(server.sockets(), Vec::<PathBuf>::new(), "the socket outlived its server");
}

/// Starts `evodb add` for candidate `i` through the server, not waited for.
fn spawn_add(calls: &Calls<'_>, i: usize, parent: &str) -> std::process::Child {
    let mut add = calls.server.command(bin(), &calls.args("add", &strs(&add_rest(i, parent))));
    add.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
}

/// Holds the run's lock as another machine would, until the server's writer waits for it (then
/// the adds sent meanwhile queue behind that writer, and form a group).
fn hold_the_lock_until_the_server_waits(
    cluster: &Cluster,
    calls: &Calls<'_>,
    parent: &str,
) -> (postgres::Client, std::process::Child) {
    let mut admin = cluster.client();
    admin.execute("SELECT pg_advisory_lock($1, hashtext($2))", &[&0x6576_6f64_i32, &RUN]).unwrap();
    let first = spawn_add(calls, 0, parent);
    let waiting =
        "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE '% serve' AND wait_event_type = 'Lock'";
    let start = std::time::Instant::now();
    while admin.query_one(waiting, &[]).unwrap().get::<_, i64>(0) == 0 {
        assert!(start.elapsed() < Duration::from_secs(20), "the server's add never waited for the lock");
        std::thread::sleep(Duration::from_millis(20));
    }
    (admin, first)
}

/// Seeds the run; the seed's id.
fn seed_one(url: &str) -> String {
    let flags = ["--codePath", "/s.js", "--targetCode", "x", "--metrics", r#"{"benchmark-score": 0.01}"#];
    let mut args = vec!["seed", "--store", url, "--run", RUN];
    args.extend(flags);
    let seeded = cli::evodb(&args);
    assert_eq!(seeded.code, 0, "{seeded:?}");
    seeded.json()["id"].as_str().unwrap().to_string()
}

/// Gives the clients just started time to reach the server and queue (a wait, not a measurement:
/// a client still starting when the lock is let go is a group of its own, and the test says so).
fn let_the_clients_queue() {
    std::thread::sleep(Duration::from_millis(1500));
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn adds_that_queue_are_committed_as_one_group_each_once() {
    let Some(cluster) = Cluster::start() else { return };
    let url = cluster.url();
    let seed_id = seed_one(&url);
    let server = Server::start(bin(), &url, RUN);
    let calls = Calls { url: url.clone(), server: &server };
    let (mut admin, first) = hold_the_lock_until_the_server_waits(&cluster, &calls, &seed_id);
    // Eleven adds queue behind it, one of them answering a plan item never planned (refused
    // alone, by the engine).
    let mut queued: Vec<_> = (1..=10).map(|i| spawn_add(&calls, i, &seed_id)).collect();
    let mut stray = calls.server.command(bin(), &calls.args("add", &strs(&add_rest(11, &seed_id))));
    stray.args(["--planItem", "never-planned"]);
    queued.push(stray.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap());
    let_the_clients_queue();
    admin.execute("SELECT pg_advisory_unlock($1, hashtext($2))", &[&0x6576_6f64_i32, &RUN]).unwrap();
    let first = Run::from(first.wait_with_output().unwrap());
    assert_eq!(first.code, 0, "{first:?}");
    let answers: Vec<Run> = queued.into_iter().map(|child| Run::from(child.wait_with_output().unwrap())).collect();
    let (added, refused): (Vec<&Run>, Vec<&Run>) = answers.iter().partition(|run| run.code == 0);
    assert_eq!(refused.len(), 1, "one of the two equal candidates is refused: {answers:?}");
    assert!(refused[0].stderr.contains("never-planned"), "{:?}", refused[0]);
    assert_eq!(added.len(), 10);
    // The add that waited for the lock, then the eleven queued behind it.
    let grouped = server.answered().iter().filter(|line| line.contains("in a group of 12")).count();
    assert_eq!(grouped, 12, "the adds were one group: {:#?}", server.answered());
    // Each answered id is stored once, and the run replays to what the server holds.
    let mut ids: Vec<String> = added.iter().map(|run| run.json()["id"].as_str().unwrap().to_string()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 10);
    let database = calls.assert_same("after the group");
    for id in &ids {
        assert!(database["programs"].get(id).is_some(), "{id} was answered but not stored");
    }
    assert_eq!(database["programs"].as_object().unwrap().len(), 12);
    assert_eq!(calls.direct("validate", &[]).json()["valid"], true);
    let events: i64 = admin.query_one("SELECT count(*) FROM evodb.events WHERE run = $1", &[&RUN]).unwrap().get(0);
    let history = calls.direct("history", &[]);
    assert_eq!(history.stdout.lines().count() as i64, events, "one event line per stored event");
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn a_group_whose_commit_fails_answers_every_add_with_the_failure_and_stores_none() {
    let Some(cluster) = Cluster::start() else { return };
    let url = cluster.url();
    let seed_id = seed_one(&url);
    // A check the server makes at COMMIT only: an event naming candidate 7 is refused then.
    cluster
        .client()
        .batch_execute(
            "CREATE FUNCTION refuse_seven() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
               IF position('return 7;' IN convert_from(NEW.line, 'UTF8')) > 0 THEN
                 RAISE EXCEPTION 'candidate seven is refused at commit';
               END IF;
               RETURN NULL;
             END $$;
             CREATE CONSTRAINT TRIGGER refuse_seven AFTER INSERT ON evodb.events
               DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_seven();",
        )
        .unwrap();
    let server = Server::start(bin(), &url, RUN);
    let calls = Calls { url: url.clone(), server: &server };
    let (mut admin, first) = hold_the_lock_until_the_server_waits(&cluster, &calls, &seed_id);
    let queued: Vec<_> = [6, 7, 8].into_iter().map(|i| spawn_add(&calls, i, &seed_id)).collect();
    let_the_clients_queue();
    admin.execute("SELECT pg_advisory_unlock($1, hashtext($2))", &[&0x6576_6f64_i32, &RUN]).unwrap();
    // The add that waited for the lock and the three queued behind it were one group: none of
    // them is stored, and each says so.
    for child in std::iter::once(first).chain(queued) {
        let answer = Run::from(child.wait_with_output().unwrap());
        assert_eq!(answer.code, 5, "{answer:?}");
        assert!(answer.stderr.contains("nothing was saved") && answer.stderr.contains("candidate seven"), "{answer:?}");
    }
    assert_eq!(
        server.answered().iter().filter(|line| line.contains("exit 5") && line.contains("group of 4")).count(),
        4
    );
    let database = calls.assert_same("after the failed group");
    assert_eq!(database["programs"].as_object().unwrap().len(), 1, "the seed alone: nothing of the group");
    // Run again, the others are stored; the server goes on.
    for i in [0, 6, 8] {
        assert_eq!(calls.served("add", &strs(&add_rest(i, &seed_id))).code, 0);
    }
    assert_eq!(calls.assert_same("after running them again")["programs"].as_object().unwrap().len(), 4);
    assert_eq!(calls.direct("validate", &[]).json()["valid"], true);
}
