//! Whole-process wall time of `evodb sample` / `evodb add`, against peers in the same run:
//! the wasm-bindgen npm package in
//! Node; then `add` on a 10,000-program database against a bare serde_json read + write of the
//! same file.
//!
//! `cargo bench -p evodb-host --bench cli_bench` (after `cargo build --release -p evodb-host`
//! and `wasm/build.sh`, which the README's commands run).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use evodb_core::{AddRequest, Config, Database, Metrics};

const RUNS: usize = 40;
const LARGE_RUNS: usize = 10;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let evodb = root.join("target/release/evodb");
    assert!(evodb.is_file(), "{} is missing: cargo build --release -p evodb-host", evodb.display());
    let scratch = tempfile::tempdir().unwrap();

    let small = scratch.path().join("small");
    write_database(&small, 120, 40, 200);
    let evodb_cmd = |args: Vec<String>| {
        let mut c = Command::new(&evodb);
        c.args(args);
        c
    };
    let sample_args = |db: &Path, extra: &[&str]| {
        let mut args = vec!["sample".to_string(), db.display().to_string()];
        args.extend(extra.iter().map(std::string::ToString::to_string));
        args
    };
    // The first call of a fresh binary against the tenth: no cache to fill, so the same.
    let info = || evodb_cmd(vec!["info".into(), small.display().to_string()]);
    let calls: Vec<Duration> = (0..10).map(|_| time(&mut info())).collect();
    println!(
        "first call of evodb info {:.2} ms, tenth {:.2} ms (nothing to warm up: the machine code is built in)\n",
        ms(calls[0]),
        ms(calls[9])
    );

    println!("whole-process wall time per call, {RUNS} calls each, 120-program database (median, p90)");
    let sample = median(RUNS, || evodb_cmd(sample_args(&small, &[])));
    let add = median(RUNS, || evodb_cmd(add_args(&small, &[])));
    let node = which("node");
    let peer = root.join("host-cli/benches/node_peer.mjs");
    let node_run = |op: &str| {
        let mut c = Command::new(node.as_ref().unwrap());
        c.arg(&peer).arg(op).arg(&small);
        if op == "add" {
            c.arg(r#"{"codePath":"/c/x.py","targetCode":"def f(x):\n    return x\n","parentId":"0","metrics":{"score":0.5},"changes":"bench"}"#);
        }
        c.current_dir(&root);
        c
    };
    let (node_sample, node_add) = match &node {
        Some(_) => (Some(median(RUNS / 2, || node_run("sample"))), Some(median(RUNS / 2, || node_run("add")))),
        None => (None, None),
    };
    row("evodb sample (machine code built in)", sample, None);
    row("evodb add    (machine code built in)", add, None);
    if let (Some(ns), Some(na)) = (node_sample, node_add) {
        row("node + npm package sample", ns, Some(("× evodb", ns.0, sample.0)));
        row("node + npm package add", na, Some(("× evodb", na.0, add.0)));
    } else {
        println!("  (node not found: the npm-package peer was skipped)");
    }
    println!("  target: ≤ 10 ms median per call");

    let large = scratch.path().join("large");
    write_database(&large, 10_000, 10_000, 2_000);
    let size = fs::metadata(large.join("database.json")).unwrap().len();
    println!("\n10,000-program database ({:.1} MB), {LARGE_RUNS} calls each", size as f64 / 1e6);
    let large_add = median(LARGE_RUNS, || evodb_cmd(add_args(&large, &[])));
    let large_info = median(LARGE_RUNS, || evodb_cmd(vec!["info".into(), large.display().to_string()]));
    let bare = median_in_process(LARGE_RUNS, || serde_roundtrip(&large.join("database.json"), false));
    let durable = median_in_process(LARGE_RUNS, || serde_roundtrip(&large.join("database.json"), true));
    row("evodb add (whole process)", large_add, Some(("× bare", large_add.0, bare.0)));
    row("evodb info (whole process: read + load, no write)", large_info, None);
    row("serde_json read + parse + write (in-process)", bare, None);
    row("… the same + fsync, as evodb's atomic replace does", durable, Some(("× bare", durable.0, bare.0)));
    println!(
        "  evodb add / durable bare: {:.1} ×  (target: evodb add ≤ 3 × the bare read + write)",
        large_add.0.as_secs_f64() / durable.0.as_secs_f64()
    );
}

/// A database with `n` programs of ~`code_bytes` of code each, written by the engine.
fn write_database(dir: &Path, n: usize, island_size: usize, code_bytes: usize) {
    fs::create_dir_all(dir).unwrap();
    let config = Config::from_json(&format!("{{\"maxIslandSize\": {island_size}}}")).unwrap();
    let mut db = Database::new(config, 11).unwrap();
    let line = "    acc = acc * 31 + x  # a line of a candidate program\n";
    let code = line.repeat(code_bytes / line.len() + 1);
    for i in 0..n {
        let metrics = Metrics::new([("score", (i * 37 % 1000) as f64 / 1000.0), ("speed", 0.5)]).unwrap();
        let request = AddRequest::seed(format!("/candidates/iteration_{i}.py"), format!("def f(x):\n{code}"), metrics);
        db.add(request, 1_700_000_000.0 + i as f64).unwrap();
    }
    fs::write(dir.join("database.json"), db.to_json()).unwrap();
}

fn add_args(db: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["add", &db.display().to_string(), "--codePath", "/candidates/x.py"]
        .into_iter()
        .chain(["--targetCode", "def f(x):\n    return x\n", "--parentId", "0"])
        .chain(["--metrics", r#"{"score": 0.5}"#, "--changes", "bench"])
        .map(String::from)
        .collect();
    args.extend(extra.iter().map(std::string::ToString::to_string));
    args
}

fn time(command: &mut Command) -> Duration {
    let start = Instant::now();
    run(command);
    start.elapsed()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn run(command: &mut Command) {
    let output = command.output().expect("the command runs");
    assert!(output.status.success(), "{command:?}: {}", String::from_utf8_lossy(&output.stderr));
}

/// (median, p90) wall time of `runs` processes.
fn median(runs: usize, mut command: impl FnMut() -> Command) -> (Duration, Duration) {
    median_in_process(runs, || run(&mut command()))
}

fn median_in_process(runs: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[runs / 2], times[(runs * 9 / 10).min(runs - 1)])
}

fn serde_roundtrip(path: &PathBuf, sync: bool) {
    let text = fs::read_to_string(path).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tmp = path.with_extension("bare.tmp");
    let mut file = fs::File::create(&tmp).unwrap();
    file.write_all(serde_json::to_string_pretty(&value).unwrap().as_bytes()).unwrap();
    if sync {
        file.sync_all().unwrap();
    }
    fs::remove_file(tmp).unwrap();
}

fn row(name: &str, (median, p90): (Duration, Duration), ratio: Option<(&str, Duration, Duration)>) {
    let ratio = ratio.map(|(label, a, b)| format!("  {:.1} {label}", ms(a) / ms(b))).unwrap_or_default();
    println!("  {name:<46} {:>8.2} ms  (p90 {:>7.2} ms){ratio}", ms(median), ms(p90));
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?.to_str()?.split(':').map(|d| Path::new(d).join(program)).find(|p| p.is_file())
}
