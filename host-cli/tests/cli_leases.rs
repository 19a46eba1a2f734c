//! Leases as a fleet meets them (issue 41 items 1 and 6): three "machines" (each its own runtime
//! directory, home and working directory) of four workers each plan one item at a time under a
//! lease, and some die mid-item — before answering, or SIGKILLed while their `add` runs. Their
//! items are handed out again later, by a `sample` and by a `plan`, with new tokens; a dead
//! worker's late answer is refused as stale; at the end every item handed out is answered exactly
//! once and `validate` is clean. On a directory, and on a PostgreSQL run where one machine goes
//! through `evodb serve`. Time is `--now`, a logical clock: nothing here waits for a lease to run
//! out. Who dies, and when, comes from a fixed seed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use serde_json::Value;

use crate::cli::postgres::Cluster;
use crate::cli::server::Server;
use crate::cli::{self, Run};

const MACHINES: usize = 3;
const WORKERS: usize = 4;
const ROUNDS: u64 = 4;
/// A round's clock: items of round `r` expire during round `r + 2` unless answered.
const ROUND_SECONDS: f64 = 100.0;
const LEASE_SECONDS: &str = "150";
const START: f64 = 10_000.0;

/// A worker's fate in one round.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fate {
    Answers,
    /// Killed while it evaluates: it never answers.
    DiesBeforeAnswering,
    /// SIGKILLed after `delay_ms` of its `add`: the add may have landed or not.
    KilledDuringAdd {
        delay_ms: u64,
    },
}

/// splitmix64: the test's own fixed stream of fates.
struct Fates(u64);

impl Fates {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn fate(&mut self) -> Fate {
        match self.next() % 10 {
            0..=5 => Fate::Answers,
            6 | 7 => Fate::DiesBeforeAnswering,
            _ => Fate::KilledDuringAdd { delay_ms: self.next() % 40 },
        }
    }
}

/// `evodb` as a worker on `machine` (its home, temp and working directory) runs it, finding
/// servers in `runtime` (the machine's own directory, or an `evodb serve`'s).
fn on_machine(machine: &Path, runtime: &Path) -> Command {
    let mut command = cli::command();
    command.current_dir(machine).env("HOME", machine).env("TMPDIR", machine).env("XDG_RUNTIME_DIR", runtime);
    command.env_remove("EVODB_STORE").env_remove("EVODB_RUN");
    command
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(ToString::to_string).collect()
}

/// One item as handed out: name, token, attempt, first parent.
#[derive(Clone, Debug)]
struct Handout {
    name: String,
    token: String,
    attempt: u64,
    parent: String,
}

impl Handout {
    fn of(item: &Value) -> Handout {
        Handout {
            name: item["name"].as_str().unwrap().to_string(),
            token: item["lease"]["token"].as_str().expect("a leased item").to_string(),
            attempt: item["lease"]["attempt"].as_u64().unwrap(),
            parent: item["parentIds"][0].as_str().unwrap().to_string(),
        }
    }
}

/// A run and the machines that work on it.
struct Fleet {
    /// How a command names the run: `<dir>`, or `--store URL --run NAME`.
    location: Vec<String>,
    machines: Vec<PathBuf>,
    /// Each machine's runtime directory: its own, or the one where an `evodb serve` listens.
    runtimes: Vec<PathBuf>,
}

impl Fleet {
    fn new(scratch: &Path, location: Vec<String>) -> Fleet {
        let machines: Vec<PathBuf> = (0..MACHINES)
            .map(|m| {
                let dir = scratch.join(format!("machine-{m}"));
                std::fs::create_dir(&dir).unwrap();
                dir
            })
            .collect();
        Fleet { location, runtimes: machines.clone(), machines }
    }

    /// `evodb <command> <the run> <rest…>`.
    fn args(&self, command: &str, rest: &[&str]) -> Vec<String> {
        [vec![command.to_string()], self.location.clone(), strings(rest)].concat()
    }

    fn command(&self, machine: usize) -> Command {
        on_machine(&self.machines[machine], &self.runtimes[machine])
    }

    fn run(&self, machine: usize, command: &str, rest: &[&str]) -> Run {
        Run::from(self.command(machine).args(self.args(command, rest)).output().expect("evodb runs"))
    }

    fn seed(&self) {
        let seeded =
            self.run(1, "seed", &["--codePath", "/c.py", "--targetCode", "s", "--metrics", r#"{"score": 0.1}"#]);
        assert_eq!(seeded.code, 0, "{seeded:?}");
    }

    fn add_args(&self, handout: &Handout, tag: &str) -> Vec<String> {
        let code = format!("def f(x):\n    return '{tag}'\n");
        let metrics = format!("{{\"score\": 0.{}}}", tag.len() % 10);
        let rest = [
            "--codePath",
            "/c.py",
            "--targetCode",
            &code,
            "--parentId",
            &handout.parent,
            "--metrics",
            &metrics,
            "--changes",
            tag,
            "--planItem",
            &handout.name,
            "--token",
            &handout.token,
        ];
        self.args("add", &rest)
    }

    fn add(&self, machine: usize, handout: &Handout, tag: &str) -> Run {
        Run::from(self.command(machine).args(self.add_args(handout, tag)).output().expect("evodb runs"))
    }

    fn plan(&self, machine: usize, n: usize, now: f64) -> Vec<Handout> {
        let (n, now) = (n.to_string(), now.to_string());
        let planned = self.run(machine, "plan", &[&n, "--leaseSeconds", LEASE_SECONDS, "--now", &now]).json();
        planned["items"].as_array().unwrap().iter().map(Handout::of).collect()
    }

    /// `database.json` as stored.
    fn stored(&self) -> String {
        self.run(1, "export", &[]).stdout
    }
}

/// The fleet's rounds (see the module's doc), then the reclaim and the checks. `machines[0]` is
/// the one that may go through `evodb serve`: it reclaims the first expired item by `sample`.
fn fleet_answers_every_item_exactly_once(fleet: &Fleet) {
    let mut fates = Fates(41);
    let handed_out: Mutex<Vec<Handout>> = Mutex::new(Vec::new());
    let dead: Mutex<Vec<Handout>> = Mutex::new(Vec::new());
    for round in 0..ROUNDS {
        let now = START + ROUND_SECONDS * round as f64;
        let round_fates: Vec<Fate> = (0..MACHINES * WORKERS).map(|_| fates.fate()).collect();
        thread::scope(|scope| {
            for (w, fate) in round_fates.iter().copied().enumerate() {
                let (machine, handed_out, dead) = (w / WORKERS, &handed_out, &dead);
                scope.spawn(move || {
                    let handout = fleet.plan(machine, 1, now).remove(0);
                    handed_out.lock().unwrap().push(handout.clone());
                    let tag = format!("r{round}-w{w}-a{}", handout.attempt);
                    match fate {
                        Fate::Answers => {
                            let later = (now + 50.0).to_string();
                            let beat = ["--item", &handout.name, "--token", &handout.token, "--now", &later];
                            assert_eq!(fleet.run(machine, "heartbeat", &beat).json()["expires"], now + 200.0);
                            let added = fleet.add(machine, &handout, &tag);
                            assert_eq!(added.code, 0, "{added:?}");
                        }
                        Fate::DiesBeforeAnswering => dead.lock().unwrap().push(handout),
                        Fate::KilledDuringAdd { delay_ms } => {
                            let mut add = fleet
                                .command(machine)
                                .args(fleet.add_args(&handout, &tag))
                                .stdout(Stdio::null())
                                .stderr(Stdio::null())
                                .spawn()
                                .unwrap();
                            thread::sleep(Duration::from_millis(delay_ms));
                            add.kill().unwrap(); // SIGKILL; a finished add is not killed
                            add.wait().unwrap();
                            dead.lock().unwrap().push(handout);
                        }
                    }
                });
            }
        });
    }
    let dead = dead.into_inner().unwrap();
    assert!(dead.len() >= 3, "the seed kills too few workers to test anything: {dead:?}");

    // Later, everything still out has expired: a sample hands the first item out again, one
    // plan all the rest, and only it.
    let later = START + ROUND_SECONDS * (ROUNDS + 10) as f64;
    let now = later.to_string();
    let leases = fleet.run(1, "leases", &["--now", &now]).json();
    let expired = leases.as_array().unwrap();
    assert!(expired.iter().all(|lease| lease["state"] == "expired"), "{leases}");
    assert!(expired.len() >= 2, "too few of the dead workers' items are still out: {leases}");
    let sampled = fleet.run(0, "sample", &["--now", &now]).json();
    assert_eq!(sampled["planItem"], expired[0]["item"], "{sampled}");
    let mut reissued = vec![Handout {
        name: sampled["planItem"].as_str().unwrap().to_string(),
        token: sampled["lease"]["token"].as_str().unwrap().to_string(),
        attempt: sampled["lease"]["attempt"].as_u64().unwrap(),
        parent: sampled["parent"]["id"].as_str().unwrap().to_string(),
    }];
    reissued.extend(fleet.plan(1, expired.len() - 1, later));
    let reissued_names: BTreeSet<&str> = reissued.iter().map(|h| h.name.as_str()).collect();
    let expired_names: BTreeSet<&str> = expired.iter().map(|l| l["item"].as_str().unwrap()).collect();
    assert_eq!(reissued_names, expired_names);
    assert!(reissued.iter().all(|h| h.attempt >= 2), "{reissued:?}");

    // The dead come back: every late answer is refused and changes nothing.
    let before = fleet.stored();
    for (i, handout) in dead.iter().enumerate() {
        let late = fleet.add(i % MACHINES, handout, "late");
        assert_ne!(late.code, 0, "{handout:?} answered under its old token: {late:?}");
        assert!(late.stderr.contains("stale") || late.stderr.contains("not a pending plan item"), "{late:?}");
    }
    assert_eq!(fleet.stored(), before, "refused answers change nothing");

    for (i, handout) in reissued.iter().enumerate() {
        let added = fleet.add(i % MACHINES, handout, "reissued");
        assert_eq!(added.code, 0, "{added:?}");
    }
    assert_eq!(fleet.run(0, "leases", &["--now", &now]).json(), serde_json::json!([]));
    assert_eq!(fleet.run(0, "validate", &[]).json()["valid"], true);
    assert_eq!(fleet.run(1, "validate", &["--history"]).json()["valid"], true);

    // Exactly once: each item's answer is the program named after it (an answer without --id gets
    // its id from the seed and the item's name), and the evaluations count one answer per item.
    let mut attempts: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for handout in handed_out.into_inner().unwrap().iter().chain(&reissued) {
        attempts.entry(handout.name.clone()).or_default().insert(handout.token.clone());
    }
    assert!(attempts.values().any(|tokens| tokens.len() > 1), "no item was handed out twice");
    let stats = fleet.run(2, "stats", &[]).json();
    assert_eq!(stats["evaluations"].as_u64(), Some(1 + attempts.len() as u64), "{stats}");
    let database: Value = serde_json::from_str(&fleet.stored()).unwrap();
    let pending = &database["evodb"]["pending"];
    assert!(pending.is_null() || pending.as_array().is_some_and(Vec::is_empty), "{pending}");
}

#[test]
fn a_fleet_with_killed_workers_answers_every_item_exactly_once() {
    let scratch = tempfile::tempdir().unwrap();
    let db = scratch.path().join("db");
    let fleet = Fleet::new(scratch.path(), vec![db.display().to_string()]);
    fleet.seed();
    fleet_answers_every_item_exactly_once(&fleet);
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn a_postgres_fleet_with_a_server_and_killed_workers_answers_every_item_exactly_once() {
    let Some(cluster) = Cluster::start() else { return };
    let url = cluster.url();
    let scratch = tempfile::tempdir().unwrap();
    let mut fleet = Fleet::new(scratch.path(), strings(&["--store", &url, "--run", "fleet"]));
    fleet.seed();
    // Machine 0 goes through `evodb serve`; the others reach PostgreSQL themselves.
    let server = Server::start(Path::new(env!("CARGO_BIN_EXE_evodb")), &url, "fleet");
    let (_, runtime) = server.env().remove(0);
    fleet.runtimes[0] = runtime;
    fleet_answers_every_item_exactly_once(&fleet);
    let answered = server.answered();
    assert!(answered.iter().any(|line| line.contains("sample")), "machine 0 went through the server: {answered:?}");
    assert!(answered.len() >= WORKERS * ROUNDS as usize, "{answered:?}");
}

/// Issue 41: `sample` hands out an expired leased item again, in place of a draw (same item, the
/// same parent and island, a new token, attempt 2), so a fleet of `sample` workers reclaims a dead
/// worker's item too; the dead worker's late answer is refused; the time is recorded, so the
/// history replays.
#[test]
fn sample_hands_a_dead_workers_item_out_again() {
    let scratch = tempfile::tempdir().unwrap();
    let fleet = Fleet::new(scratch.path(), vec![scratch.path().join("db").display().to_string()]);
    fleet.seed();
    let planned = fleet.run(0, "plan", &["2", "--leaseSeconds", "60", "--now", "100"]).json();
    let items = planned["items"].as_array().unwrap();
    let sample = |now: &str| fleet.run(0, "sample", &["--now", now]).json();
    assert!(sample("150").get("planItem").is_none(), "leases still live: a fresh draw");

    let again = sample("200");
    assert_eq!(again["planItem"], items[0]["name"], "{again}");
    assert_eq!(again["parent"]["id"], items[0]["parentIds"][0]);
    assert_eq!(again["lease"]["attempt"], 2);
    assert_eq!(again["lease"]["expires"], 260.0);
    assert_ne!(again["lease"]["token"], items[0]["lease"]["token"]);

    let first = Handout::of(&items[0]);
    let late = fleet.add(0, &first, "late");
    assert_ne!(late.code, 0, "{late:?}");
    assert!(late.stderr.contains("stale"), "{late:?}");
    let reissued = Handout { token: again["lease"]["token"].as_str().unwrap().to_string(), attempt: 2, ..first };
    assert_eq!(fleet.add(0, &reissued, "reissued").code, 0);
    assert_eq!(sample("210")["planItem"], items[1]["name"]);
    assert!(sample("210").get("planItem").is_none(), "nothing expired is left");

    let bad = fleet.run(0, "sample", &["--now", "soon"]);
    assert_eq!(bad.code, 2, "{bad:?}");
    let history = fleet.run(0, "history", &[]).stdout;
    assert_eq!(history.matches(r#""event":"sampled""#).count(), 4, "{history}");
    assert_eq!(history.matches(r#""now":200"#).count(), 1, "{history}");
    assert_eq!(fleet.run(0, "validate", &["--history"]).json()["valid"], true);
}
