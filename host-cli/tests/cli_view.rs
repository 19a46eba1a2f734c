//! `evodb view`: the playground and the run's files over http on 127.0.0.1, read-only; the
//! history's new lines for a page following the run; `--open`; a missing database is a clear
//! error. (The page itself is tested in Chromium: www/tests/.)

use crate::cli;

use std::io::Write;

use cli::viewer::{get, header, request, view};
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

#[test]
fn history_from_a_byte_answers_only_complete_new_lines_and_where_to_ask_next() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().display().to_string();
    let demo = Run::from(command().args(["demo", "--iterations", "3", "--out", &out]).output().unwrap());
    assert_eq!(demo.code, 0, "{demo:?}");
    let path = tmp.path().join("database/history.ndjson");
    let history = std::fs::read(&path).unwrap();
    let len = history.len();
    let viewer = view(&[tmp.path().join("database").to_str().unwrap()]);
    let next = |head: &str| header(head, "X-Evodb-Next").expect("X-Evodb-Next").parse::<usize>().unwrap();

    let (status, head, body) = request(&viewer, "GET", "/run/history.ndjson?from=0");
    assert_eq!((status, next(&head)), (200, len));
    assert_eq!(body, history);
    let (_, head, body) = request(&viewer, "GET", &format!("/run/history.ndjson?from={len}"));
    assert_eq!((body.len(), next(&head)), (0, len), "nothing new yet");

    // A line still being written is not sent; once complete, it is, and only it.
    let mut file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
    file.write_all(br#"{"event":"planned","n":1,"#).unwrap();
    let (_, head, body) = request(&viewer, "GET", &format!("/run/history.ndjson?from={len}"));
    assert_eq!((body.len(), next(&head)), (0, len), "a torn last line waits");
    file.write_all(b"\"frozen\":[],\"boosted\":[],\"items\":[]}\n").unwrap();
    let (_, head, body) = request(&viewer, "GET", &format!("/run/history.ndjson?from={len}"));
    let line = br#"{"event":"planned","n":1,"frozen":[],"boosted":[],"items":[]}"#;
    assert_eq!(body, [&line[..], b"\n"].concat());
    assert_eq!(next(&head), len + line.len() + 1);

    // Asking beyond the end means the run was replaced: the page opens it again.
    let (status, _, body) = request(&viewer, "GET", &format!("/run/history.ndjson?from={}", len * 2));
    assert_eq!(status, 409);
    assert!(String::from_utf8_lossy(&body).contains("open it again"));
}

#[cfg(unix)]
#[test]
fn open_starts_the_systems_browser_on_the_url() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::fs::PermissionsExt;
    use std::process::Stdio;

    let tmp = tempfile::tempdir().unwrap();
    // A stand-in for xdg-open (and macOS's open) that writes down what it was asked to open.
    let opened = tmp.path().join("opened.txt");
    for name in ["xdg-open", "open"] {
        let script = tmp.path().join(name);
        std::fs::write(&script, format!("#!/bin/sh\necho \"$@\" > '{}'\n", opened.display())).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!("{}:{}", tmp.path().display(), std::env::var("PATH").unwrap_or_default());
    let mut child =
        command().args(["view", "--port", "0", "--open"]).env("PATH", path).stdout(Stdio::piped()).spawn().unwrap();
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut url).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let written = || std::fs::read_to_string(&opened).is_ok_and(|s| s.ends_with('\n'));
    while !written() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(std::fs::read_to_string(&opened).unwrap_or_default().trim(), url.trim());
}
