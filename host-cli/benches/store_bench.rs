//! The PostgreSQL store beside the directory store, one JSON line per figure (`bench/run` prints
//! them as a table):
//!
//! - `store.add.N`, `store.sample.N`: whole-process `evodb add` / `evodb sample` on a run of N
//!   programs (~2 KB of code each) in PostgreSQL, beside the same command on a directory holding
//!   the same `database.json` (moved there with `evodb copy`);
//! - `store.clients8`: adds per second with 8 processes adding at once, each store.
//! - `store.serve.*`: the same on the run with `evodb serve` keeping its engine warm (the median,
//!   and the mean, which counts the snapshots a writer stores now and then).
//!
//! Needs PostgreSQL's server programs (Debian's `postgresql`): the bench starts a throwaway cluster
//! (fsync on, as the directory store syncs) and stops it at the end. Without them it prints nothing.
//! `cargo bench -p evodb-host --bench store_bench [-- SIZES…]` (needs the release binary).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

mod common;
#[allow(dead_code)] // the tests' cluster; the bench uses part of it
#[path = "../tests/cli/postgres.rs"]
mod pg_cluster;
#[allow(dead_code)]
#[path = "../tests/cli/server.rs"]
mod server;

use common::{median, write_database};
use server::Server;

const CODE_BYTES: usize = 2_000;
const CLIENTS: usize = 8;
const ADDS_PER_CLIENT: usize = 25;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let evodb = root.join("target/release/evodb");
    assert!(evodb.is_file(), "{} is missing: cargo build --release -p evodb-host", evodb.display());
    let sizes: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![100, 1_000, 10_000] } else { sizes };
    let Some(cluster) = pg_cluster::Cluster::start_durable() else { return };
    let scratch = tempfile::tempdir().unwrap();
    let url = cluster.url();

    for &n in &sizes {
        let run = format!("bench-{n}");
        let dir = directory_and_run(&evodb, &scratch.path().join(format!("dir-{n}")), n, &url, &run);
        let runs = if n >= 10_000 { 5 } else { 15 };
        for command in ["add", "sample"] {
            let on_dir = median(runs, || evodb_command(&evodb, &command_args(command, path(&dir), None)));
            let on_pg = median(runs, || evodb_command(&evodb, &command_args(command, &url, Some(&run))));
            common::figure(
                &format!("store.{command}.{n}"),
                &format!("evodb {command}, {n} programs, PostgreSQL"),
                on_pg,
                Some(("directory".into(), on_dir)),
            );
        }
        let server = Server::start(&evodb, &url, &run);
        for command in ["add", "sample"] {
            let times: Vec<Duration> = (0..SERVED_CALLS)
                .map(|_| {
                    let mut call = server.command(&evodb, &command_args(command, &url, Some(&run)));
                    let start = Instant::now();
                    let output = call.output().unwrap();
                    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
                    start.elapsed()
                })
                .collect();
            let mean = times.iter().sum::<Duration>() / SERVED_CALLS as u32;
            let mut sorted = times.clone();
            sorted.sort();
            let line = serde_json::json!({"id": format!("store.serve.{command}.{n}"),
                "label": format!("evodb {command}, {n} programs, PostgreSQL with evodb serve"),
                "value": common::ms(sorted[SERVED_CALLS / 2]), "unit": "ms", "mean": common::ms(mean),
                "max": common::ms(sorted[SERVED_CALLS - 1])});
            println!("{line}");
        }
    }

    let dir = directory_and_run(&evodb, &scratch.path().join("clients"), 100, &url, "clients");
    let on_dir = adds_per_second(&evodb, path(&dir), None, &[]);
    let on_pg = adds_per_second(&evodb, &url, Some("clients"), &[]);
    let line = serde_json::json!({"id": "store.clients8",
        "label": format!("adds/s, {CLIENTS} processes adding at once, PostgreSQL"),
        "value": rounded(on_pg), "unit": "adds/s", "peer": "directory", "peer_value": rounded(on_dir)});
    println!("{line}");
    let server = Server::start(&evodb, &url, "clients");
    let served = adds_per_second(&evodb, &url, Some("clients"), &server.env());
    let line = serde_json::json!({"id": "store.serve.clients8",
        "label": format!("adds/s, {CLIENTS} processes adding at once, PostgreSQL with evodb serve"),
        "value": rounded(served), "unit": "adds/s"});
    println!("{line}");
}

/// Calls of each command measured through `evodb serve`: enough that the mean counts the
/// snapshots stored now and then.
const SERVED_CALLS: usize = 60;

/// A directory `dir` holding `n` programs, and the same database copied into run `run` at `url`.
fn directory_and_run(evodb: &Path, dir: &Path, n: usize, url: &str, run: &str) -> std::path::PathBuf {
    write_database(dir, n, n, CODE_BYTES);
    let copied = evodb_command(evodb, &["copy", path(dir), url, "--run", run]).output().unwrap();
    assert!(copied.status.success(), "{}", String::from_utf8_lossy(&copied.stderr));
    dir.to_path_buf()
}

/// All adds of [`CLIENTS`] processes, each making [`ADDS_PER_CLIENT`] in turn, over the wall time.
fn adds_per_second(evodb: &Path, db: &str, run: Option<&str>, env: &[(String, std::path::PathBuf)]) -> f64 {
    let start = Instant::now();
    let workers: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (evodb, db, run, env) = (evodb.to_path_buf(), db.to_string(), run.map(String::from), env.to_vec());
            std::thread::spawn(move || {
                for _ in 0..ADDS_PER_CLIENT {
                    let mut add = evodb_command(&evodb, &command_args("add", &db, run.as_deref()));
                    let output = add.envs(env.iter().cloned()).output().unwrap();
                    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    (CLIENTS * ADDS_PER_CLIENT) as f64 / start.elapsed().as_secs_f64()
}

fn command_args(command: &str, db: &str, run: Option<&str>) -> Vec<String> {
    let mut args = vec![command.to_string(), db.to_string()];
    if let Some(run) = run {
        args.extend(["--run".to_string(), run.to_string()]);
    }
    if command == "add" {
        let flags = [
            "--codePath",
            "/candidates/x.py",
            "--targetCode",
            "def f(x):\n    return x\n",
            "--parentId",
            "0",
            "--metrics",
            r#"{"score": 0.5, "speed": 0.4}"#,
            "--changes",
            "bench",
        ];
        args.extend(flags.map(String::from));
    }
    args
}

fn evodb_command<S: AsRef<std::ffi::OsStr>>(evodb: &Path, args: &[S]) -> Command {
    let mut command = Command::new(evodb);
    command.args(args);
    command
}

fn path(dir: &Path) -> &str {
    dir.to_str().expect("a UTF-8 temp path")
}

fn rounded(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}
