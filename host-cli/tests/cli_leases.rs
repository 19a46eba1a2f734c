//! Leases as a fleet meets them (issue 41 items 1 and 6), on a directory: three "machines" (each
//! its own runtime directory, home and working directory) of four workers each plan one item at a
//! time under a lease, and some die mid-item — before answering, or SIGKILLed while their `add`
//! runs. Their items are handed out again by later plans with new tokens; a dead worker's late
//! answer is refused as stale; at the end every item handed out is answered exactly once and
//! `validate` is clean. Time is `--now`, a logical clock: nothing here waits for a lease to run
//! out. Who dies, and when, comes from a fixed seed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use serde_json::Value;

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

/// `evodb` as a worker on `machine` runs it.
fn on(machine: &Path) -> Command {
    let mut command = cli::command();
    command.current_dir(machine).env("HOME", machine).env("TMPDIR", machine).env("XDG_RUNTIME_DIR", machine);
    command.env_remove("EVODB_STORE").env_remove("EVODB_RUN");
    command
}

fn run(machine: &Path, args: &[String]) -> Run {
    Run::from(on(machine).args(args).output().expect("evodb runs"))
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

fn add_args(db: &Path, handout: &Handout, tag: &str) -> Vec<String> {
    strings(&[
        "add",
        &db.display().to_string(),
        "--codePath",
        "/c.py",
        "--targetCode",
        &format!("def f(x):\n    return '{tag}'\n"),
        "--parentId",
        &handout.parent,
        "--metrics",
        &format!("{{\"score\": 0.{}}}", tag.len() % 10),
        "--changes",
        tag,
        "--planItem",
        &handout.name,
        "--token",
        &handout.token,
    ])
}

fn plan(machine: &Path, db: &Path, n: usize, now: f64) -> Vec<Handout> {
    let args = strings(&["plan", &db.display().to_string(), &n.to_string(), "--leaseSeconds", LEASE_SECONDS]);
    let planned = run(machine, &[args, strings(&["--now", &now.to_string()])].concat()).json();
    planned["items"].as_array().unwrap().iter().map(Handout::of).collect()
}

#[test]
fn a_fleet_with_killed_workers_answers_every_item_exactly_once() {
    let scratch = tempfile::tempdir().unwrap();
    let db = scratch.path().join("db");
    let machines: Vec<PathBuf> = (0..MACHINES)
        .map(|m| {
            let dir = scratch.path().join(format!("machine-{m}"));
            std::fs::create_dir(&dir).unwrap();
            dir
        })
        .collect();
    let seeded = run(
        &machines[0],
        &strings(&[
            "seed",
            &db.display().to_string(),
            "--codePath",
            "/c.py",
            "--targetCode",
            "s",
            "--metrics",
            r#"{"score": 0.1}"#,
        ]),
    );
    assert_eq!(seeded.code, 0, "{seeded:?}");

    let mut fates = Fates(41);
    let handed_out: Mutex<Vec<Handout>> = Mutex::new(Vec::new());
    let dead: Mutex<Vec<Handout>> = Mutex::new(Vec::new());
    for round in 0..ROUNDS {
        let now = START + ROUND_SECONDS * round as f64;
        let round_fates: Vec<Fate> = (0..MACHINES * WORKERS).map(|_| fates.fate()).collect();
        thread::scope(|scope| {
            for (w, fate) in round_fates.iter().copied().enumerate() {
                let (machine, db, handed_out, dead) = (&machines[w / WORKERS], &db, &handed_out, &dead);
                scope.spawn(move || {
                    let handout = plan(machine, db, 1, now).remove(0);
                    handed_out.lock().unwrap().push(handout.clone());
                    let tag = format!("r{round}-w{w}-a{}", handout.attempt);
                    match fate {
                        Fate::Answers => {
                            let beat = strings(&[
                                "heartbeat",
                                &db.display().to_string(),
                                "--item",
                                &handout.name,
                                "--token",
                                &handout.token,
                                "--now",
                                &(now + 50.0).to_string(),
                            ]);
                            assert_eq!(run(machine, &beat).json()["expires"], now + 200.0);
                            let added = run(machine, &add_args(db, &handout, &tag));
                            assert_eq!(added.code, 0, "{added:?}");
                        }
                        Fate::DiesBeforeAnswering => dead.lock().unwrap().push(handout),
                        Fate::KilledDuringAdd { delay_ms } => {
                            let mut add = on(machine)
                                .args(add_args(db, &handout, &tag))
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

    // Later, everything still out has expired: one plan hands all of it out again, and only it.
    let machine = &machines[1];
    let later = START + ROUND_SECONDS * (ROUNDS + 10) as f64;
    let leases = run(machine, &strings(&["leases", &db.display().to_string(), "--now", &later.to_string()])).json();
    let expired = leases.as_array().unwrap();
    assert!(expired.iter().all(|lease| lease["state"] == "expired"), "{leases}");
    assert!(!expired.is_empty(), "some dead worker's item is still out: {leases}");
    let reissued = plan(machine, &db, expired.len(), later);
    let reissued_names: BTreeSet<&str> = reissued.iter().map(|h| h.name.as_str()).collect();
    let expired_names: BTreeSet<&str> = expired.iter().map(|l| l["item"].as_str().unwrap()).collect();
    assert_eq!(reissued_names, expired_names);
    assert!(reissued.iter().all(|h| h.attempt >= 2), "{reissued:?}");

    // The dead come back: every late answer is refused and changes nothing.
    let before = std::fs::read(db.join("database.json")).unwrap();
    for handout in &dead {
        let late = run(machine, &add_args(&db, handout, "late"));
        assert_ne!(late.code, 0, "{handout:?} answered under its old token: {late:?}");
        assert!(late.stderr.contains("stale") || late.stderr.contains("not a pending plan item"), "{late:?}");
    }
    assert_eq!(std::fs::read(db.join("database.json")).unwrap(), before, "refused answers change nothing");

    for handout in &reissued {
        let added = run(machine, &add_args(&db, handout, "reissued"));
        assert_eq!(added.code, 0, "{added:?}");
    }
    let path = db.display().to_string();
    assert_eq!(run(machine, &strings(&["leases", &path, "--now", &later.to_string()])).json(), serde_json::json!([]));
    assert_eq!(run(machine, &strings(&["validate", &path])).json()["valid"], true);

    // Exactly once: each item's answer is the program named after it (an answer without --id gets
    // its id from the seed and the item's name), and the evaluations count one answer per item.
    let mut attempts: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for handout in handed_out.into_inner().unwrap().iter().chain(&reissued) {
        attempts.entry(handout.name.clone()).or_default().insert(handout.token.clone());
    }
    assert!(attempts.values().any(|tokens| tokens.len() > 1), "no item was handed out twice");
    let stats = run(machine, &strings(&["stats", &path])).json();
    assert_eq!(stats["evaluations"].as_u64(), Some(1 + attempts.len() as u64), "{stats}");
    let database: Value = serde_json::from_slice(&std::fs::read(db.join("database.json")).unwrap()).unwrap();
    let pending = &database["evodb"]["pending"];
    assert!(pending.is_null() || pending.as_array().is_some_and(Vec::is_empty), "{pending}");
}
