//! The PostgreSQL store beside the directory store, one JSON line per figure (`bench/run` prints
//! them as a table):
//!
//! - `store.add.N`, `store.sample.N`: whole-process `evodb add` / `evodb sample` on a run of N
//!   programs (~2 KB of code each) in PostgreSQL, beside the same command on a directory holding
//!   the same `database.json` (moved there with `evodb copy`);
//! - `store.clients8`: adds per second with 8 processes adding at once, each store.
//! - `store.serve.*`: the same on the run with `evodb serve` keeping its engine warm (the median,
//!   and the mean, which counts the snapshots a writer stores now and then).
//! - `store.fleet64`: adds per second on one 10,000-program run from 64 workers across 4
//!   "machines" (4 servers, each with its own runtime directory, 16 workers each), with group
//!   commit and without it (`EVODB_SERVE_GROUP_MAX=1`) in the same run.
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
    let fleet_only = std::env::args().any(|arg| arg == "fleet");
    let sizes = match (sizes.is_empty(), fleet_only) {
        (_, true) => Vec::new(),
        (true, false) => vec![100, 1_000, 10_000],
        (false, false) => sizes,
    };
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

    if fleet_only {
        fleet(&evodb, scratch.path(), &url);
        return;
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
    drop(server);
    fleet(&evodb, scratch.path(), &url);
}

/// `store.fleet64`, with group commit and without it.
fn fleet(evodb: &Path, scratch: &Path, url: &str) {
    directory_and_run(evodb, &scratch.join("fleet"), 10_000, url, "fleet");
    for workers in [Workers::Processes, Workers::Threads] {
        let alone = fleet_adds_per_second(evodb, url, "fleet", "1", workers);
        let grouped = fleet_adds_per_second(evodb, url, "fleet", "64", workers);
        let (id, how) = match workers {
            Workers::Processes => ("store.fleet64", "each add an evodb process"),
            Workers::Threads => ("store.fleet64.servers", "each add sent on the server's socket as evodb sends it"),
        };
        let line = serde_json::json!({"id": id,
            "label": format!("adds/s on one 10,000-program run, {} workers across {MACHINES} servers, {how}", MACHINES * WORKERS_PER_MACHINE),
            "value": rounded(grouped.0), "unit": "adds/s", "peer": "without group commit", "peer_value": rounded(alone.0),
            "mean_group": (grouped.1 * 10.0).round() / 10.0});
        println!("{line}");
    }
}

/// How the fleet's workers add.
#[derive(Clone, Copy)]
enum Workers {
    /// Each add an `evodb add` process, all of them on this machine's cores.
    Processes,
    /// Each add the request an `evodb add` process sends, sent by a thread on the server's
    /// socket: the servers and PostgreSQL alone, as when the workers' processes run on
    /// machines of their own.
    Threads,
}

/// The fleet: servers ("machines") on one run, and workers per server.
const MACHINES: usize = 4;
const WORKERS_PER_MACHINE: usize = 16;
const ADDS_PER_WORKER: usize = 10;

/// Adds per second of [`MACHINES`] × [`WORKERS_PER_MACHINE`] workers, each making
/// [`ADDS_PER_WORKER`] adds in turn through its machine's server (whose groups hold at most
/// `group_max` commands), over the wall time; and the servers' mean group.
fn fleet_adds_per_second(evodb: &Path, url: &str, run: &str, group_max: &str, how: Workers) -> (f64, f64) {
    let servers: Vec<Server> = (0..MACHINES)
        .map(|_| Server::start_with(evodb, &["serve", url, "--run", run], &[("EVODB_SERVE_GROUP_MAX", group_max)]))
        .collect();
    let request = captured_add(evodb, &servers[0], url, run);
    let start = Instant::now();
    let workers: Vec<_> = servers
        .iter()
        .flat_map(|server| (0..WORKERS_PER_MACHINE).map(|_| server.env()))
        .enumerate()
        .map(|(worker, env)| {
            let (evodb, url, run, request) = (evodb.to_path_buf(), url.to_string(), run.to_string(), request.clone());
            std::thread::spawn(move || {
                for i in 0..ADDS_PER_WORKER {
                    // Each worker's own code, so that none is a duplicate of another's.
                    let code = format!("def f(x):\n    return x + {}\n", worker * ADDS_PER_WORKER + i);
                    match how {
                        Workers::Processes => {
                            let mut args = command_args("add", &url, Some(&run));
                            let at = args.iter().position(|arg| arg == "--targetCode").unwrap() + 1;
                            args[at] = code;
                            let output = evodb_command(&evodb, &args).envs(env.iter().cloned()).output().unwrap();
                            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
                        }
                        Workers::Threads => send_add(&env[0].1, &request, &code),
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    let adds = (MACHINES * WORKERS_PER_MACHINE * ADDS_PER_WORKER) as f64;
    let per_second = adds / start.elapsed().as_secs_f64();
    let server_cpu: f64 = servers.iter().map(|server| cpu_seconds(server.pid())).sum();
    let peak_mb = servers.iter().map(|server| peak_memory_mb(server.pid())).fold(0.0, f64::max);
    eprintln!(
        "fleet (groups of at most {group_max}): {per_second:.1} adds/s; the servers' CPU {:.2} ms per add; a \
         server's peak memory {peak_mb:.0} MB",
        server_cpu / adds * 1e3
    );
    let answered: Vec<String> = servers.iter().flat_map(Server::answered).collect();
    let groups: f64 = answered
        .iter()
        .map(|line| {
            line.rsplit_once("in a group of ")
                .map_or(1.0, |(_, n)| 1.0 / n.trim_end_matches(')').parse::<f64>().unwrap_or(1.0))
        })
        .sum();
    (per_second, answered.len() as f64 / groups.max(1.0))
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
            ADDED_CODE,
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

/// The CPU time process `pid` has used (user and system), in seconds.
fn cpu_seconds(pid: i32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> =
        stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
    let ticks: f64 = [11, 12].iter().filter_map(|&i| fields.get(i)?.parse::<f64>().ok()).sum();
    ticks / 100.0
}

/// The code `command_args` gives an add.
const ADDED_CODE: &str = "def f(x):\n    return x\n";

/// The request `evodb add` sends to `server`, captured once: on a socket of the same name in a
/// runtime directory of the bench's own, which takes the request and closes (the add then runs
/// by itself, as the protocol says).
fn captured_add(evodb: &Path, server: &Server, url: &str, run: &str) -> serde_json::Value {
    use std::io::BufRead;
    use std::os::unix::fs::PermissionsExt;
    let socket = server.sockets().pop().expect("the server listens");
    let runtime = tempfile::tempdir().unwrap();
    let dir = runtime.path().join("evodb");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let listener = std::os::unix::net::UnixListener::bind(dir.join(socket.file_name().unwrap())).unwrap();
    let mut add = evodb_command(evodb, &command_args("add", url, Some(run)));
    let child = add.env("XDG_RUNTIME_DIR", runtime.path()).stdout(std::process::Stdio::null()).spawn().unwrap();
    let (stream, _) = listener.accept().unwrap();
    let mut line = String::new();
    std::io::BufReader::new(&stream).read_line(&mut line).unwrap();
    drop(stream);
    assert!(child.wait_with_output().unwrap().status.success());
    serde_json::from_str(&line).unwrap()
}

/// Sends `request` with `code` as its candidate's code on the socket in `runtime`, as `evodb`
/// would (the request; the server's acknowledgement and turn; go; the reply), and checks that
/// the add succeeded.
fn send_add(runtime: &Path, request: &serde_json::Value, code: &str) {
    use std::io::{Read, Write};
    let mut request = request.clone();
    replace_string(&mut request, ADDED_CODE, code);
    let mut socket = std::fs::read_dir(runtime.join("evodb")).unwrap().flatten().map(|entry| entry.path());
    let socket = socket.find(|path| path.extension().is_some_and(|e| e == "sock")).unwrap();
    let mut stream = std::os::unix::net::UnixStream::connect(socket).unwrap();
    let mut line = serde_json::to_vec(&request).unwrap();
    line.push(b'\n');
    stream.write_all(&line).unwrap();
    let mut byte = [0];
    stream.read_exact(&mut byte).unwrap();
    assert_eq!(byte[0], b'R', "the server did not take the request");
    stream.read_exact(&mut byte).unwrap();
    assert_eq!(byte[0], b'S', "the server did not start the request");
    stream.write_all(b"G").unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).unwrap();
    let reply: serde_json::Value = serde_json::from_slice(&reply).unwrap();
    assert_eq!(reply["exit"], 0, "{reply}");
}

/// Replaces every string `from` in `value` with `to`.
fn replace_string(value: &mut serde_json::Value, from: &str, to: &str) {
    match value {
        serde_json::Value::String(text) if text == from => *text = to.to_string(),
        serde_json::Value::Array(items) => items.iter_mut().for_each(|item| replace_string(item, from, to)),
        serde_json::Value::Object(map) => map.values_mut().for_each(|item| replace_string(item, from, to)),
        _ => {}
    }
}

/// The most memory process `pid` has held (`VmHWM`), in MB.
fn peak_memory_mb(pid: i32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb = status.lines().find_map(|line| line.strip_prefix("VmHWM:"));
    kb.and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<f64>().ok()).unwrap_or(0.0) / 1024.0
}
