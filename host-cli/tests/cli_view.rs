//! `evodb view`: the playground and the run's files over http on 127.0.0.1, read-only; a missing
//! database is a clear error. (The page itself is tested in Chromium: www/tests/.)

mod cli;

use cli::viewer::{get, view};
use cli::{Run, command};

#[test]
fn serves_the_page_the_wasm_and_the_run_read_only() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().display().to_string();
    let demo = Run::from(command().args(["demo", "--iterations", "5", "--out", &out]).output().unwrap());
    assert_eq!(demo.code, 0, "{demo:?}");
    let db = tmp.path().join("database");
    let before = std::fs::read(db.join("database.json")).unwrap();
    let history = std::fs::read(db.join("history.ndjson")).unwrap();
    let viewer = view(&[db.to_str().unwrap()]);

    let (status, kind, page) = get(&viewer, "GET", "/");
    assert_eq!((status, kind.as_str()), (200, "text/html; charset=utf-8"));
    assert!(String::from_utf8_lossy(&page).contains("data-ready=\"false\""));
    for script in ["/js/main.js", "/js/model.js", "/js/sources.js", "/js/views/islands.js", "/pkg/evodb.js"] {
        assert_eq!(get(&viewer, "GET", script).0, 200, "{script}");
    }
    let (status, kind, wasm) = get(&viewer, "GET", "/pkg/evodb_bg.wasm");
    assert_eq!((status, kind.as_str()), (200, "application/wasm"));
    assert_eq!(&wasm[..4], b"\0asm");
    assert_eq!(get(&viewer, "GET", "/run/database.json?x=1").2, before);
    assert_eq!(get(&viewer, "GET", "/run/history.ndjson").2, history);

    assert_eq!(get(&viewer, "GET", "/../database.json").0, 400);
    assert_eq!(get(&viewer, "GET", "/run/../../etc/passwd").0, 400);
    assert_eq!(get(&viewer, "GET", "/run/config.toml").0, 404);
    assert_eq!(get(&viewer, "GET", "/nothing.js").0, 404);
    assert_eq!(get(&viewer, "GET", "/tests/playground.test.mjs").0, 404);
    assert_eq!(get(&viewer, "POST", "/run/database.json").0, 405);
    assert_eq!(std::fs::read(db.join("database.json")).unwrap(), before, "view never writes");
}

#[test]
fn a_run_without_history_answers_no_content_and_a_file_path_works() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("database.json"), "{}").unwrap();
    let viewer = view(&[tmp.path().join("database.json").to_str().unwrap()]);
    assert_eq!(get(&viewer, "GET", "/run/database.json").2, b"{}");
    assert_eq!(get(&viewer, "GET", "/run/history.ndjson").0, 204);
}

#[test]
fn no_database_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let run = Run::from(command().args(["view", tmp.path().to_str().unwrap(), "--port", "0"]).output().unwrap());
    assert_eq!(run.code, 3, "{run:?}");
    assert!(run.stderr.contains("no database.json in"), "{run:?}");
    assert!(run.stderr.contains("pass the database directory"), "{run:?}");
}
