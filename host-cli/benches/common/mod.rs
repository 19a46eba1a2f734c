//! What the benches share: databases of a given size, medians, and the JSON lines `bench/run`
//! reads.
#![allow(dead_code)] // each bench uses its own part

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use evodb_core::{AddRequest, Config, Database, Metrics};

/// A database with `n` programs of ~`code_bytes` of code each, written by the engine.
pub fn write_database(dir: &Path, n: usize, island_size: usize, code_bytes: usize) {
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

/// Median wall time of `runs` processes.
pub fn median(runs: usize, mut command: impl FnMut() -> Command) -> Duration {
    in_process(runs, || {
        let output = command().output().expect("the command runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    })
}

pub fn in_process(runs: usize, mut f: impl FnMut()) -> Duration {
    in_process_split(runs, || {
        let start = Instant::now();
        f();
        (start.elapsed(), Duration::ZERO)
    })
    .0
}

/// Medians of the two durations `f` reports, over `runs` calls.
pub fn in_process_split(runs: usize, mut f: impl FnMut() -> (Duration, Duration)) -> (Duration, Duration) {
    let (mut a, mut b): (Vec<Duration>, Vec<Duration>) = (0..runs).map(|_| f()).unzip();
    a.sort();
    b.sort();
    (a[runs / 2], b[runs / 2])
}

/// One JSON line: a figure in milliseconds, with its peer when there is one.
pub fn figure(id: &str, label: &str, ours: Duration, peer: Option<(String, Duration)>) {
    let mut line = serde_json::json!({"id": id, "label": label, "value": ms(ours), "unit": "ms"});
    if let Some((peer_label, peer)) = peer {
        line["peer"] = peer_label.into();
        line["peer_value"] = ms(peer).into();
    }
    println!("{line}");
}

pub fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}
