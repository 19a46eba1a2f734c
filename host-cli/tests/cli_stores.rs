//! One CLI suite, run on both stores: a database directory and a PostgreSQL run (a throwaway
//! cluster, see `cli/postgres.rs`). Same commands, same JSON, same exit codes, same history;
//! parallel workers lose nothing; bad input changes nothing; `copy` moves a run both ways byte
//! for byte. PostgreSQL's own faults (unreachable server, killed clients, a restart, passwords)
//! follow the parametrised cases, and a deadlock the server breaks is retried. The cases run a
//! third time on a run that `evodb serve` keeps warm, beside writers that go to PostgreSQL
//! directly.

use crate::cli;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use cli::postgres::{Cluster, PASSWORD, PASSWORD_USER};
use cli::server::Server;
use cli::{Run, command, evodb};
use serde_json::Value;

/// Where a case's database lives.
enum Store<'a> {
    Directory(PathBuf),
    Postgres {
        cluster: &'a Cluster,
        run: String,
    },
    /// A run that `evodb serve` keeps warm: `run` goes through the server.
    Served {
        cluster: &'a Cluster,
        run: String,
        server: Server,
    },
}

impl Store<'_> {
    /// The arguments that stand for `<dbPath>`.
    fn location(&self) -> Vec<String> {
        match self {
            Store::Directory(dir) => vec![dir.display().to_string()],
            Store::Postgres { cluster, run } | Store::Served { cluster, run, .. } => {
                vec!["--store".into(), cluster.url(), "--run".into(), run.clone()]
            }
        }
    }

    /// Another empty location of the same kind (not served).
    fn sibling(&self, name: &str) -> Store<'_> {
        match self {
            Store::Directory(dir) => Store::Directory(dir.with_file_name(format!("{}-{name}", dir.display()))),
            Store::Postgres { cluster, run } | Store::Served { cluster, run, .. } => {
                Store::Postgres { cluster, run: format!("{run}-{name}") }
            }
        }
    }

    /// What a command needs to reach the server, when there is one.
    fn env(&self) -> Vec<(String, PathBuf)> {
        match self {
            Store::Served { server, .. } => server.env(),
            _ => Vec::new(),
        }
    }

    /// `evodb <command> <location> <rest…>`.
    fn run(&self, command: &str, rest: &[&str]) -> Run {
        Run::from(cli::command().args(self.args(command, rest)).envs(self.env()).output().expect("evodb runs"))
    }

    fn args(&self, command: &str, rest: &[&str]) -> Vec<String> {
        let mut args = vec![command.to_string()];
        args.extend(self.location());
        args.extend(rest.iter().map(ToString::to_string));
        args
    }

    /// database.json as stored.
    fn stored(&self) -> String {
        self.run("export", &["--format", "json"]).stdout
    }
}

fn add_rest(i: usize, parent: &str, score: f64) -> Vec<String> {
    let (code, metrics) = (format!("def f(x):\n    return {i}\n"), format!("{{\"score\": {score}}}"));
    ["--codePath", "/c.py", "--targetCode", &code, "--parentId", parent, "--metrics", &metrics, "--changes", "c"]
        .map(String::from)
        .to_vec()
}

fn add(store: &Store, i: usize, parent: &str, score: f64) -> Run {
    let rest = add_rest(i, parent, score);
    store.run("add", &rest.iter().map(String::as_str).collect::<Vec<_>>())
}

fn seed(store: &Store) -> String {
    let run = store
        .run("seed", &["--codePath", "/c.py", "--targetCode", "def f(x): return 0", "--metrics", r#"{"score": 0.1}"#]);
    run.json()["id"].as_str().expect("seed prints the id").to_string()
}

/// `add` answering plan item `item` (with its parent), under `token` when given.
fn answer(store: &Store, i: usize, item: &Value, token: Option<&str>) -> Run {
    let mut rest = add_rest(i, item["parentIds"][0].as_str().unwrap(), 0.2 + i as f64 / 100.0);
    rest.extend(["--planItem".to_string(), item["name"].as_str().unwrap().to_string()]);
    rest.extend(token.map(|token| ["--token".to_string(), token.to_string()]).into_iter().flatten());
    store.run("add", &rest.iter().map(String::as_str).collect::<Vec<_>>())
}

// --- the cases, each on a fresh location --------------------------------------------------------

/// Three items under leases: one answered, one kept alive by a heartbeat, one whose worker died.
/// The next plan hands the dead worker's item out again with a new token; the dead worker's late
/// answer is refused and changes nothing; every item is then answered exactly once.
fn leases_reissue_a_dead_workers_item_and_refuse_its_answer(store: &Store) {
    seed(store);
    let plan = store.run("plan", &["3", "--leaseSeconds", "60", "--now", "1000"]).json();
    let items = plan["items"].as_array().unwrap().clone();
    let token = |item: &Value| item["lease"]["token"].as_str().unwrap().to_string();
    assert!(items.iter().all(|item| item["lease"]["expires"] == 1060.0 && item["lease"]["attempt"] == 1), "{plan}");
    answer(store, 1, &items[0], Some(&token(&items[0]))).json();
    let beat = store.run(
        "heartbeat",
        &[
            "--item",
            items[1]["name"].as_str().unwrap(),
            "--token",
            &token(&items[1]),
            "--now",
            "1050",
            "--leaseSeconds",
            "100",
        ],
    );
    assert_eq!(beat.json()["expires"], 1150.0);
    let leases = store.run("leases", &["--now", "1100"]).json();
    let states: Vec<(&str, &str)> = leases
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["item"].as_str().unwrap(), l["state"].as_str().unwrap()))
        .collect();
    assert_eq!(states, [(items[1]["name"].as_str().unwrap(), "live"), (items[2]["name"].as_str().unwrap(), "expired")]);

    let again = store.run("plan", &["1", "--now", "1100"]).json();
    let reissued = &again["items"][0];
    assert_eq!((&reissued["name"], &reissued["lease"]["attempt"]), (&items[2]["name"], &Value::from(2)), "{again}");
    let before = store.stored();
    let stale = answer(store, 2, &items[2], Some(&token(&items[2])));
    assert!(stale.code != 0 && stale.stderr.contains("stale"), "{stale:?}");
    let tokenless = answer(store, 2, &items[2], None);
    assert!(tokenless.code != 0 && tokenless.stderr.contains("--token"), "{tokenless:?}");
    let wrong = store.run("heartbeat", &["--item", items[2]["name"].as_str().unwrap(), "--token", &token(&items[2])]);
    assert!(wrong.code != 0 && wrong.stderr.contains("stale"), "{wrong:?}");
    assert_eq!(store.stored(), before, "refusals change nothing");

    answer(store, 3, reissued, Some(&token(reissued))).json();
    answer(store, 4, &items[1], Some(&token(&items[1]))).json();
    let twice = answer(store, 5, reissued, Some(&token(reissued)));
    assert!(twice.code != 0 && twice.stderr.contains("not a pending plan item"), "{twice:?}");
    assert_eq!(store.run("leases", &["--now", "2000"]).json(), serde_json::json!([]));
    assert_eq!(store.run("validate", &["--history"]).json()["valid"], true);
    let history = store.run("history", &[]).stdout;
    for item in &items {
        let answers = history
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .filter(|e| e["event"] == "added" && e["request"]["planItem"] == item["name"])
            .count();
        assert_eq!(answers, 1, "{} answered once: {history}", item["name"]);
    }
}

fn the_seed_commands_answer_in_the_seed_shapes(store: &Store) {
    let missing = store.run("info", &[]);
    match store {
        // The seed's CLI answers a missing directory with an empty database.
        Store::Directory(_) => assert_eq!(missing.json()["isEmpty"], true, "a missing database is empty"),
        // A run has no such contract: a typo in --run, or a deleted run, is named (issue 35).
        _ => assert!(missing.code == 3 && missing.stderr.contains("no run named"), "{missing:?}"),
    }
    let created = store.run("create", &[]);
    assert_eq!(created.json()["programCount"], 0);
    let seed_id = seed(store);
    for (i, score) in [0.3, 0.9, 0.5].into_iter().enumerate() {
        let added = add(store, i + 1, &seed_id, score).json();
        assert_eq!(added["lastIteration"], i + 2, "{added}");
    }
    let best = store.run("best", &[]).json();
    assert_eq!(best["metrics"]["score"], 0.9);
    let sample = store.run("sample", &[]).json();
    assert!(sample["parent"]["id"].is_string() && sample["inspirations"].is_array(), "{sample}");
    let info = store.run("info", &[]).json();
    assert_eq!((info["programCount"].as_u64(), info["seedTargetCode"].as_str()), (Some(4), Some("def f(x): return 0")));
    let lineage = store.run("lineage", &[best["id"].as_str().unwrap()]).json();
    assert_eq!(lineage["ancestors"][0], seed_id.as_str(), "{lineage}");
    assert_eq!(store.run("validate", &[]).json()["valid"], true);
}

fn the_history_holds_every_event_in_order(store: &Store) {
    let seed_id = seed(store);
    add(store, 1, &seed_id, 0.4).json();
    let history = store.run("history", &[]);
    let events: Vec<Value> =
        history.stdout.lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect();
    assert_eq!(events[0]["event"], "created", "{}", history.stdout);
    let added: Vec<&Value> = events.iter().filter(|e| e["event"] == "added").collect();
    assert_eq!(added.len(), 2);
    assert_eq!(added[1]["request"]["parentId"], seed_id.as_str());
    let tail = store.run("history", &["--tail", "1"]);
    assert_eq!(tail.stdout.trim_end(), history.stdout.trim_end().lines().last().unwrap());
}

fn bad_input_fails_and_changes_nothing(store: &Store) {
    let seed_id = seed(store);
    let before = store.stored();
    let cases: [(&[&str], i32, &str); 3] = [
        (
            &[
                "add",
                "--codePath",
                "c",
                "--targetCode",
                "x",
                "--parentId",
                "0",
                "--metrics",
                r#"{"score": "NaN"}"#,
                "--changes",
                "c",
            ],
            1,
            "metrics",
        ),
        (
            &["add", "--codePath", "c", "--targetCode", "x", "--parentId", "0", "--metrics", "{oops", "--changes", "c"],
            1,
            "--metrics",
        ),
        (&["lineage", "no-such-id"], 3, "no live program"),
    ];
    for (args, code, says) in cases {
        let run = store.run(args[0], &args[1..]);
        assert_eq!(run.code, code, "{args:?}: {run:?}");
        assert!(run.stderr.contains(says), "{args:?}: {run:?}");
    }
    assert_eq!(store.stored(), before, "a refused call changed the database");
    assert_eq!(store.run("init", &[]).code, 1, "init refuses a location holding a database");
    assert!(store.run("lineage", &[&seed_id]).code == 0);
    let missing = store.sibling("missing");
    assert_eq!(missing.run("validate", &[]).code, 3, "nothing to validate");
}

fn parallel_workers_lose_no_add(store: &Store) {
    const WORKERS: usize = 8;
    const ADDS: usize = 50;
    let seed_id = seed(store);
    let workers: Vec<_> = (0..WORKERS)
        .map(|w| {
            let args: Vec<Vec<String>> = (0..ADDS)
                .map(|i| {
                    store.args(
                        "add",
                        &add_rest(w * ADDS + i + 1, &seed_id, 0.5).iter().map(String::as_str).collect::<Vec<_>>(),
                    )
                })
                .collect();
            let env = store.env();
            thread::spawn(move || {
                args.iter().filter(|a| command().args(*a).envs(env.clone()).output().unwrap().status.success()).count()
            })
        })
        .collect();
    let acknowledged: usize = workers.into_iter().map(|w| w.join().unwrap()).sum();
    assert_eq!(acknowledged, WORKERS * ADDS, "every add succeeds");
    let info = store.run("info", &[]).json();
    assert_eq!(info["lastIteration"], WORKERS * ADDS + 1, "an acknowledged add was lost: {info}");
    assert_eq!(store.run("validate", &[]).json()["valid"], true);
}

fn copy_moves_a_run_byte_for_byte(store: &Store) {
    let scratch = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/seed-written");
    let (imported, exported) = (store.sibling("imported"), scratch.path().join("exported"));
    let to = |s: &Store| s.location();
    let copy = |src: Vec<String>, dst: Vec<String>| {
        // `--run` goes once: it names the PostgreSQL side.
        let mut args = vec!["copy".to_string()];
        let (src_run, dst_run) = (run_flag(&src), run_flag(&dst));
        args.push(positional(&src));
        args.push(positional(&dst));
        args.extend(src_run.or(dst_run).map(|r| ["--run".to_string(), r]).into_iter().flatten());
        evodb(&args)
    };
    // The seed CLI's own file in, and out again: identical bytes.
    let copied = copy(vec![fixture.display().to_string()], to(&imported));
    assert_eq!(copied.code, 0, "{copied:?}");
    let out = copy(to(&imported), vec![exported.display().to_string()]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        std::fs::read(exported.join("database.json")).unwrap(),
        std::fs::read(fixture.join("database.json")).unwrap()
    );
    // An evodb run with its history, out and back.
    seed(store);
    let (dir, back) = (scratch.path().join("dir"), store.sibling("back"));
    assert_eq!(copy(to(store), vec![dir.display().to_string()]).code, 0);
    assert_eq!(copy(vec![dir.display().to_string()], to(&back)).code, 0);
    assert_eq!(back.stored(), store.stored());
    assert_eq!(back.run("history", &[]).stdout, store.run("history", &[]).stdout);
    let refused = copy(vec![dir.display().to_string()], to(&back));
    assert_eq!(refused.code, 1, "copying over a database is refused: {refused:?}");
}

/// `--store URL --run R` → `URL`, and the run; a directory as it is.
fn positional(location: &[String]) -> String {
    match location.first().map(String::as_str) {
        Some("--store") => location[1].clone(),
        _ => location[0].clone(),
    }
}

fn run_flag(location: &[String]) -> Option<String> {
    location.iter().position(|a| a == "--run").map(|i| location[i + 1].clone())
}

type Case = (&'static str, fn(&Store));

const CASES: &[Case] = &[
    ("shapes", the_seed_commands_answer_in_the_seed_shapes),
    ("history", the_history_holds_every_event_in_order),
    ("bad-input", bad_input_fails_and_changes_nothing),
    ("parallel", parallel_workers_lose_no_add),
    ("copy", copy_moves_a_run_byte_for_byte),
    ("leases", leases_reissue_a_dead_workers_item_and_refuse_its_answer),
];

fn run_cases<'a>(kind: &str, store_for: impl Fn(&str) -> Store<'a>) {
    let mut ran = 0;
    for (name, case) in CASES {
        eprintln!("{kind}: {name}");
        let store = store_for(name);
        case(&store);
        if let Store::Served { server, .. } = &store {
            let answered = server.answered();
            assert!(answered.len() >= 3, "{name}: the server answered {answered:?}");
            assert!(answered.iter().all(|line| !line.contains("exit 70")), "{name}: {answered:?}");
        }
        ran += 1;
    }
    eprintln!("{kind}: {ran} cases");
    assert_eq!(ran, 6);
}

#[test]
fn every_case_on_a_directory() {
    let root = tempfile::tempdir().unwrap();
    run_cases("directory", |name| Store::Directory(root.path().join(name)));
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn every_case_on_postgres_and_its_faults() {
    let Some(cluster) = Cluster::start() else { return };
    run_cases("postgres", |name| Store::Postgres { cluster: &cluster, run: name.to_string() });
    let url = cluster.url();
    run_cases("served", |name| {
        let run = format!("served-{name}");
        let server = Server::start(Path::new(env!("CARGO_BIN_EXE_evodb")), &url, &run);
        Store::Served { cluster: &cluster, run, server }
    });
    view_serves_a_run(&cluster);
    an_unreachable_server_is_exit_5_naming_host_and_port();
    a_password_never_appears_in_any_output(&cluster);
    clients_killed_mid_add_lose_nothing_acknowledged(&cluster);
    a_restart_mid_stream_loses_nothing_acknowledged(&cluster);
    a_deadlock_is_retried_and_adds_once(&cluster);
    a_lagging_snapshot_loads_as_the_current_database(&cluster);
}

fn view_serves_a_run(cluster: &Cluster) {
    let url = cluster.url();
    let viewer = cli::viewer::view(&["--store", &url, "--run", "shapes"]);
    let (status, _, body) = cli::viewer::get(&viewer, "GET", "/run/database.json");
    assert_eq!(status, 200);
    assert_eq!(
        String::from_utf8(body).unwrap(),
        evodb(&["export", "--store", &url, "--run", "shapes"]).stdout.trim_end()
    );
    let (status, _, history) = cli::viewer::get(&viewer, "GET", "/run/history.ndjson");
    assert_eq!((status, history.is_empty()), (200, false));
    let missing = evodb(&["view", "--store", &url, "--run", "no-such-run", "--port", "0"]);
    assert_eq!(missing.code, 3, "{missing:?}");
}

fn an_unreachable_server_is_exit_5_naming_host_and_port() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let started = Instant::now();
    let run = evodb(&[
        "info",
        "--store",
        &format!("postgres://evodb@127.0.0.1:{port}/x"),
        "--run",
        "r",
        "--connectTimeout",
        "2",
    ]);
    assert_eq!(run.code, 5, "{run:?}");
    assert!(run.stderr.contains(&format!("127.0.0.1:{port}")), "{run:?}");
    assert!(started.elapsed() < Duration::from_secs(10));
}

fn a_password_never_appears_in_any_output(cluster: &Cluster) {
    let url = format!("postgres://{PASSWORD_USER}:{PASSWORD}@127.0.0.1:{}/postgres", cluster.port);
    let store = |args: &[&str]| -> Vec<String> {
        args.iter()
            .map(ToString::to_string)
            .chain(["--store".into(), url.clone(), "--run".into(), "secret".into()])
            .collect()
    };
    let seeded = evodb(&store(&["seed", "--codePath", "c", "--targetCode", "x", "--metrics", r#"{"s": 1}"#]));
    assert_eq!(seeded.code, 0, "the password in the URL logs in: {seeded:?}");
    let mut outputs = vec![seeded];
    for args in [&["history"][..], &["info"], &["validate"], &["add", "--codePath", "c"], &["export"]] {
        outputs.push(evodb(&store(args)));
    }
    let wrong = url.replace(PASSWORD, "not-the-password-123");
    let refused = evodb(&["info", "--store", &wrong, "--run", "secret"]);
    assert_eq!(refused.code, 5, "{refused:?}");
    outputs.push(refused);
    for run in &outputs {
        assert!(!run.stdout.contains(PASSWORD) && !run.stderr.contains(PASSWORD), "the password leaked: {run:?}");
        assert!(!run.stderr.contains("not-the-password-123"), "a wrong password leaked: {run:?}");
    }
}

fn spawn_add(cluster: &Cluster, run: &str, i: usize) -> Child {
    let mut args = vec!["add".to_string(), "--store".into(), cluster.url(), "--run".into(), run.into()];
    args.extend(add_rest(i, "0", 0.5));
    args.extend(["--id".to_string(), format!("p{i}")]);
    command().args(&args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
}

/// `evodb init` on `run`: only the commands that make a run make one (an `add` to a run that is
/// not there is refused).
fn make_run(cluster: &Cluster, run: &str) {
    let made = evodb(&["init", "--store", &cluster.url(), "--run", run]);
    assert_eq!(made.code, 0, "{made:?}");
}

fn stored_ids(cluster: &Cluster, run: &str) -> BTreeSet<String> {
    let text = evodb(&["export", "--store", &cluster.url(), "--run", run]).stdout;
    let db: Value = serde_json::from_str(&text).expect("the run exports");
    db["programs"].as_object().unwrap().keys().cloned().collect()
}

fn clients_killed_mid_add_lose_nothing_acknowledged(cluster: &Cluster) {
    let run = "killed";
    make_run(cluster, run);
    let mut acknowledged = BTreeSet::new();
    for i in 0..50 {
        let mut child = spawn_add(cluster, run, i);
        thread::sleep(Duration::from_millis((i as u64 * 7) % 40));
        match child.try_wait().unwrap() {
            Some(status) if status.success() => {
                acknowledged.insert(format!("p{i}"));
            }
            Some(_) => {}
            None => {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
    let stored = stored_ids(cluster, run);
    eprintln!("killed clients: {} acknowledged, {} stored", acknowledged.len(), stored.len());
    assert!(acknowledged.is_subset(&stored), "acknowledged but lost: {:?}", acknowledged.difference(&stored));
    let valid = evodb(&["validate", "--store", &cluster.url(), "--run", run]);
    assert_eq!(valid.json()["valid"], true);
    retries_add_each_program_once(cluster, run, 50);
}

/// Every add of the stream run again, as a worker retries a call whose answer it lost: each
/// succeeds, and the run ends with each program added exactly once.
fn retries_add_each_program_once(cluster: &Cluster, run: &str, adds: usize) {
    for i in 0..adds {
        let output = spawn_add(cluster, run, i).wait_with_output().unwrap();
        assert!(output.status.success(), "retry {i}: {}", String::from_utf8_lossy(&output.stderr));
    }
    let expected: BTreeSet<String> = (0..adds).map(|i| format!("p{i}")).collect();
    assert_eq!(stored_ids(cluster, run), expected);
    let history = evodb(&["history", "--store", &cluster.url(), "--run", run]);
    assert_eq!(history.code, 0, "{history:?}");
    let events = history.stdout.lines().map(|line| serde_json::from_str::<Value>(line).expect("a JSON line"));
    let added = events.filter(|event| event["event"] == "added").count();
    assert_eq!(added, adds, "each program is added once, however often its add ran");
}

fn a_restart_mid_stream_loses_nothing_acknowledged(cluster: &Cluster) {
    let run = "restarted";
    make_run(cluster, run);
    let mut acknowledged = BTreeSet::new();
    let mut failures = 0;
    let restarter = thread::scope(|scope| {
        let restart = scope.spawn(|| {
            thread::sleep(Duration::from_millis(300));
            cluster.restart();
        });
        for i in 0..60 {
            let output = spawn_add(cluster, run, i).wait_with_output().unwrap();
            match output.status.code() {
                Some(0) => {
                    acknowledged.insert(format!("p{i}"));
                }
                Some(5) => failures += 1,
                other => panic!("add {i} failed with {other:?}: {}", String::from_utf8_lossy(&output.stderr)),
            }
        }
        restart.join().is_ok()
    });
    assert!(restarter, "pg_ctl restart ran");
    eprintln!("restart: {} adds acknowledged, {failures} failed with exit 5", acknowledged.len());
    let stored = stored_ids(cluster, run);
    assert!(acknowledged.is_subset(&stored), "acknowledged but lost: {:?}", acknowledged.difference(&stored));
    assert!(!acknowledged.is_empty(), "no add succeeded ({failures} failed)");
    assert_eq!(evodb(&["validate", "--store", &cluster.url(), "--run", run]).json()["valid"], true);
    retries_add_each_program_once(cluster, run, 60);
}

/// A deadlock: another session holds the events table while the add, holding its run's lock,
/// waits to append its events; that session then waits for the run's lock. The server aborts the
/// add's transaction (it waited first, and the other session's deadlock_timeout is long), and
/// the add runs again from the start once the other session lets go.
fn a_deadlock_is_retried_and_adds_once(cluster: &Cluster) {
    let run = "deadlocked";
    assert_eq!(
        evodb(&[
            "seed",
            "--store",
            &cluster.url(),
            "--run",
            run,
            "--codePath",
            "/c/s.py",
            "--targetCode",
            "s",
            "--metrics",
            r#"{"score": 0.1}"#
        ])
        .code,
        0
    );
    let mut other = cluster.client();
    other.batch_execute("SET deadlock_timeout = '60s'; BEGIN; LOCK TABLE evodb.events IN SHARE MODE").unwrap();
    let add = spawn_add(cluster, run, 0);
    let mut watcher = cluster.client();
    let deadline = Instant::now() + Duration::from_secs(20);
    let waiting_to_append = "SELECT count(*) FROM pg_stat_activity \
        WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO evodb.events%'";
    while watcher.query_one(waiting_to_append, &[]).unwrap().get::<_, i64>(0) == 0 {
        assert!(Instant::now() < deadline, "the add never waited for the events table");
        thread::sleep(Duration::from_millis(10));
    }
    // Returns once the server has aborted the add's transaction, which held this lock.
    other.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", &[&0x6576_6f64_i32, &run]).unwrap();
    other.batch_execute("ROLLBACK").unwrap();
    let output = add.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the retried add failed: {stderr}");
    assert!(stderr.contains("deadlock detected") && stderr.contains("running it again (retry 1 of 5)"), "{stderr}");
    assert!(stored_ids(cluster, run).contains("p0"));
    let history = evodb(&["history", "--store", &cluster.url(), "--run", run]).stdout;
    let added = history.lines().filter(|line| serde_json::from_str::<Value>(line).unwrap()["event"] == "added").count();
    assert_eq!(added, 2, "the seed and p0, each once: {history}");
}

/// A run stores its whole database only once the events after the snapshot have grown; every
/// load re-runs those. The same samples and adds on a directory and on such a run leave the same
/// population after each step (the clock's timestamps aside), and the run copied out is it.
fn a_lagging_snapshot_loads_as_the_current_database(cluster: &Cluster) {
    let scratch = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/seed-written");
    let directory = Store::Directory(scratch.path().join("dir"));
    let run = Store::Postgres { cluster, run: "lagging".into() };
    for target in [directory.location(), run.location()] {
        let mut args = vec!["copy".to_string(), fixture.display().to_string(), positional(&target)];
        args.extend(run_flag(&target).map(|r| ["--run".to_string(), r]).into_iter().flatten());
        assert_eq!(evodb(&args).code, 0, "{args:?}");
    }
    let lag = || {
        let row = cluster.client().query_one("SELECT seq - snapshot_seq FROM evodb.runs WHERE name = 'lagging'", &[]);
        row.unwrap().get::<_, i64>(0)
    };
    // A plan whose second item is answered first (held), then a plan that releases that answer
    // before writing its own line: the re-run must follow that order too.
    for store in [&directory, &run] {
        let plan = store.run("plan", &["2"]).json();
        let (item, parent) = (&plan["items"][1]["name"], &plan["items"][1]["parentIds"][0]);
        let mut rest = add_rest(200, parent.as_str().unwrap(), 0.5);
        rest.extend(["--planItem".to_string(), item.as_str().unwrap().to_string()]);
        let held = store.run("add", &rest.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(held.code, 0, "{held:?}");
        assert_eq!(store.run("plan", &["1"]).code, 0);
    }
    assert!(lag() > 0, "the plans' events are pending, so the loads below re-run them");
    assert_eq!(without_times(&run.stored()), without_times(&directory.stored()), "after the plans");
    let mut most_lagged = 0;
    for i in 0..16 {
        for store in [&directory, &run] {
            let parent = store.run("sample", &[]).json()["parent"]["id"].as_str().unwrap().to_string();
            let added = add(store, 100 + i, &parent, 0.01 * i as f64);
            assert_eq!(added.code, 0, "{added:?}");
        }
        most_lagged = most_lagged.max(lag());
        assert_eq!(without_times(&run.stored()), without_times(&directory.stored()), "after add {i}");
    }
    assert!(most_lagged >= 4, "the snapshot lagged by at most {most_lagged} events: nothing was re-run");
    assert_eq!(run.run("validate", &[]).json()["valid"], true);
    let out = scratch.path().join("out");
    let copied = evodb(&["copy", &cluster.url(), &out.display().to_string(), "--run", "lagging"]);
    assert_eq!(copied.code, 0, "{copied:?}");
    let copied = std::fs::read_to_string(out.join("database.json")).unwrap();
    assert_eq!(copied.trim_end(), run.stored().trim_end());
    let Store::Directory(dir) = &directory else { unreachable!() };
    assert_eq!(without_times(&copied), without_times(&std::fs::read_to_string(dir.join("database.json")).unwrap()));
}

/// database.json's value with every program's `timestamp` (the clock's) set to 0.
fn without_times(text: &str) -> Value {
    let mut db: Value = serde_json::from_str(text).expect("database.json is JSON");
    for program in db["programs"].as_object_mut().unwrap().values_mut() {
        program["timestamp"] = 0.into();
    }
    db
}
