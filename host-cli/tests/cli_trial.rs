//! `evodb trial`: the correctness gate and the benchmark, and the target file always restored
//! byte for byte: after passing and failing tests, score errors, timeouts, bad input, Ctrl-C and
//! SIGTERM, and after a SIGKILL (by the next trial).

use crate::cli;

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use cli::{Run, command};
use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;
use serde_json::Value;
use tempfile::TempDir;

/// Not UTF-8, CRLF, no final newline: any rewrite would show.
const ORIGINAL: &[u8] = b"def f(x):\r\n    return x  # original \xff\xfe\x00 no final newline";
const CANDIDATE: &[u8] = b"def f(x):\n    return x + 1  # candidate\n";
const MODE: u32 = 0o751;
/// The test command that passes only while the candidate is in place.
const SWAPPED: &str = "cmp -s target.py candidate.py";

struct Fixture {
    dir: TempDir,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("target.py"), ORIGINAL).unwrap();
    fs::set_permissions(dir.path().join("target.py"), fs::Permissions::from_mode(MODE)).unwrap();
    fs::write(dir.path().join("candidate.py"), CANDIDATE).unwrap();
    Fixture { dir }
}

impl Fixture {
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `evodb trial --target target.py --candidate candidate.py <args>` in the fixture (`args`
    /// may name another candidate).
    fn args(&self, args: &[&str]) -> std::process::Command {
        let mut cmd = command();
        cmd.current_dir(self.dir.path()).args(["trial", "--target", "target.py"]);
        if !args.contains(&"--candidate") {
            cmd.args(["--candidate", "candidate.py"]);
        }
        cmd.args(args);
        cmd
    }

    fn trial(&self, args: &[&str]) -> Run {
        Run::from(self.args(args).output().expect("evodb runs"))
    }

    fn spawn(&self, args: &[&str]) -> Child {
        self.args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("evodb starts")
    }

    fn write(&self, name: &str, contents: &str) {
        fs::write(self.path(name), contents).unwrap();
    }

    /// The target is the original, byte for byte and mode, and no trial file is left beside it.
    fn assert_restored(&self, context: &str) {
        assert_eq!(fs::read(self.path("target.py")).unwrap(), ORIGINAL, "{context}: target bytes");
        let mode = fs::metadata(self.path("target.py")).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, MODE, "{context}: target mode");
        let leftovers: Vec<String> = fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.contains(".evodb-trial."))
            .collect();
        assert!(leftovers.is_empty(), "{context}: left behind {leftovers:?}");
    }

    /// Waits for the file a sleeping test command creates.
    fn wait_for(&self, name: &str) -> String {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            if let Ok(text) = fs::read_to_string(self.path(name))
                && text.ends_with('\n')
            {
                return text.trim().to_string();
            }
            thread::sleep(Duration::from_millis(20));
        }
        panic!("the test command never wrote {name}");
    }
}

/// stdout as JSON, whatever the exit code.
fn report(run: &Run) -> Value {
    serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {run:?}"))
}

/// Gone, or a zombie nobody reaped yet: either way no longer running.
fn dead(pid: &str) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        match fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            Ok(stat) if stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')) => return true,
            Ok(_) => thread::sleep(Duration::from_millis(20)),
        }
    }
    false
}

#[test]
fn passing_tests_then_the_benchmark_json_key() {
    let f = fixture();
    let run = f.trial(&[
        "--test",
        &format!("{SWAPPED} && echo tests ok"),
        "--bench",
        &format!("{SWAPPED} && echo '{{\"score\": 0.1, \"speed\": 0.73}}'"),
        "--scoreKey",
        "speed",
    ]);
    let out = run.json();
    assert_eq!(out["passed"], true);
    assert_eq!(out["tests"]["exitCode"], 0);
    assert_eq!(out["tests"]["timedOut"], false);
    assert!(out["tests"]["output"].as_str().unwrap().contains("tests ok"));
    assert!(out["tests"]["seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(out["benchmark"]["score"], 0.73);
    assert_eq!(out["judge"], Value::Null);
    assert_eq!(out["combined"], 0.73);
    assert_eq!(out["restored"], true);
    assert_eq!(out["recovered"], false);
    f.assert_restored("passing");
}

/// Issue 37 (noise): `--repeat N` reports the median of N benchmark runs as the score, with the
/// spread; one lucky or unlucky run moves neither the score nor the MAD.
#[test]
fn repeat_reports_the_median_score_and_the_spread() {
    let f = fixture();
    // The runs print 0.5, 0.9, 0.1, 0.52, 0.48 in turn (a counter file in the directory).
    let bench = "n=$(cat runs 2>/dev/null || echo 0); n=$((n+1)); echo $n > runs; \
                 case $n in 1) echo 0.5;; 2) echo 0.9;; 3) echo 0.1;; 4) echo 0.52;; *) echo 0.48;; esac";
    let out = f.trial(&["--test", SWAPPED, "--bench", bench, "--repeat", "5"]).json();
    assert_eq!(fs::read_to_string(f.path("runs")).unwrap().trim(), "5", "the benchmark ran 5 times");
    let benchmark = &out["benchmark"];
    assert_eq!(benchmark["score"], 0.5, "{out}");
    assert_eq!(benchmark["repeat"], 5);
    let score = &benchmark["spread"]["score"];
    assert_eq!(
        (&score["median"], &score["min"], &score["max"], &score["mad"]),
        (&0.5.into(), &0.1.into(), &0.9.into(), &0.02.into()),
        "{score}"
    );
    assert_eq!(score["values"], serde_json::json!([0.5, 0.9, 0.1, 0.52, 0.48]));
    assert_eq!(benchmark["spread"]["seconds"]["values"].as_array().unwrap().len(), 5);
    assert_eq!(out["combined"], 0.5);
    assert_eq!(out["combinedOf"], "benchmark", "combined without --judge says it is the benchmark's score");
    f.assert_restored("repeat");

    // One run is today's report: no spread.
    let once = f.trial(&["--bench", "echo 0.25", "--repeat", "1"]).json();
    assert_eq!(once["benchmark"]["score"], 0.25);
    assert!(once["benchmark"].get("spread").is_none(), "{once}");
    let zero = f.trial(&["--bench", "echo 0.25", "--repeat", "0"]);
    assert_eq!(zero.code, 2, "{zero:?}");
    assert!(zero.stderr.contains("--repeat 0"), "{zero:?}");
}

/// A failing run among the repeats fails the trial as a single failing benchmark does.
#[test]
fn repeat_stops_at_the_first_failing_run() {
    let f = fixture();
    let bench = "n=$(cat runs 2>/dev/null || echo 0); n=$((n+1)); echo $n > runs; [ $n -lt 2 ] && echo 0.5 || exit 7";
    let run = f.trial(&["--bench", bench, "--repeat", "4"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(fs::read_to_string(f.path("runs")).unwrap().trim(), "2", "no run after the failing one");
    assert!(report(&run)["error"].as_str().unwrap().contains("exited with code 7"), "{run:?}");
    f.assert_restored("repeat failing");
}

#[test]
fn failing_tests_are_a_normal_outcome_and_skip_the_benchmark() {
    let f = fixture();
    let run = f.trial(&["--test", "echo broken >&2; exit 3", "--bench", "touch bench-ran; echo 0.5"]);
    let out = run.json();
    assert_eq!(out["passed"], false);
    assert_eq!(out["tests"]["exitCode"], 3);
    assert!(out["tests"]["output"].as_str().unwrap().contains("broken"));
    assert_eq!(out["benchmark"], Value::Null);
    assert_eq!(out["combined"], Value::Null);
    assert!(!f.path("bench-ran").exists(), "the benchmark ran after failing tests");
    f.assert_restored("failing");
}

#[test]
fn benchmark_scores_json_bare_number_and_last_number() {
    let f = fixture();
    for (bench, score) in [
        ("echo 'run 1 of 2'; echo 'run 2 of 2'; echo 'score: 0.42'", 0.42),
        ("echo warming up; echo '{\"score\": 0.25}'", 0.25),
        ("echo 1", 1.0),
        ("printf 'fitness=5e-1'", 0.5),
    ] {
        let out = f.trial(&["--bench", bench]).json();
        assert_eq!(out["benchmark"]["score"], score, "{bench}");
        assert_eq!(out["combined"], score, "{bench}");
        assert_eq!(out["tests"], Value::Null);
        assert_eq!(out["passed"], true, "no --test: nothing gates");
        f.assert_restored(bench);
    }
}

#[test]
fn benchmark_without_a_valid_score_is_an_error_with_the_report() {
    let f = fixture();
    for (bench, message) in [
        ("echo 1.5", "outside [0, 1]"),
        ("echo '{\"score\": -0.5}'", "outside [0, 1]"),
        ("echo 'took 12 ms'", "the benchmark score 12"),
        ("echo hello world", "no JSON score and no number"),
        ("true", "printed nothing"),
        ("echo '{\"time\": 3}'", "no \"score\", \"result\" or \"value\" key (it has \"time\"); pass --scoreKey"),
        ("echo '{\"score\": \"high\"}'", "is a string"),
        ("echo 'score: NaN'", "not finite"),
        ("echo 0.9; echo oops >&2; exit 2", "exited with code 2"),
    ] {
        let run = f.trial(&["--test", SWAPPED, "--bench", bench]);
        assert_eq!(run.code, 1, "{bench}: {run:?}");
        assert!(run.stderr.contains(message), "{bench}: {}", run.stderr);
        let out = report(&run);
        assert_eq!(out["passed"], true);
        assert_eq!(out["benchmark"]["score"], Value::Null);
        assert_eq!(out["combined"], Value::Null);
        assert!(out["error"].as_str().unwrap().contains(message), "{bench}: {out}");
        assert_eq!(out["restored"], true);
        f.assert_restored(bench);
    }
}

#[test]
fn judge_scores_combine_with_the_benchmark() {
    let f = fixture();
    f.write("judge.txt", "My verdict:\n```json\n{\"efficiency-score\": 7}\n```\nGood use of a dict.");
    let out = f.trial(&["--test", SWAPPED, "--bench", "echo 0.5", "--judge", "judge.txt"]).json();
    assert_eq!(out["judge"]["score"], 0.7);
    assert_eq!(out["judge"]["raw"], 7);
    assert_eq!(out["benchmark"]["score"], 0.5);
    assert!((out["combined"].as_f64().unwrap() - 0.6).abs() < 1e-12, "{out}");
    assert_eq!(out["combinedOf"], "benchmark and judge");
    let out = f.trial(&["--test", SWAPPED, "--judge", "judge.txt"]).json();
    assert_eq!(out["combined"], 0.7, "the judge alone");
    assert_eq!(out["combinedOf"], "judge");
    let out = f.trial(&["--test", "false", "--judge", "judge.txt"]).json();
    assert_eq!((&out["passed"], &out["combined"]), (&Value::Bool(false), &Value::Null), "no score when tests fail");
    assert_eq!(out["combinedOf"], Value::Null);
    f.assert_restored("judge");
}

#[test]
fn an_invalid_judge_answer_asks_for_a_retry_before_anything_runs() {
    let f = fixture();
    for (answer, message) in [
        ("{\"efficiency-score\": 11}", "outside 1–10"),
        ("{\"efficiency-score\": 0}", "outside 1–10"),
        ("{\"efficiency-score\": \"8\"}", "is a string"),
        ("{\"score\": 8}", "no \"efficiency-score\" key"),
        ("I'd give it an 8/10.", "no JSON object"),
        ("", "empty"),
    ] {
        f.write("judge.txt", answer);
        let run = f.trial(&["--test", "touch tests-ran", "--bench", "echo 0.5", "--judge", "judge.txt"]);
        assert_eq!(run.code, 6, "{answer}: {run:?}");
        assert!(run.stderr.contains(message) && run.stderr.contains("ask it again"), "{answer}: {}", run.stderr);
        let out = report(&run);
        assert_eq!(out["retry"], true);
        assert!(out["error"].as_str().unwrap().contains(message));
        assert!(!f.path("tests-ran").exists(), "{answer}: the tests ran");
        f.assert_restored(answer);
    }
}

#[test]
fn a_timeout_kills_the_command_group_and_restores() {
    let f = fixture();
    let started = Instant::now();
    let run = f.trial(&["--test", "sleep 60 & echo $! > sleeper.pid; wait", "--timeoutSec", "1"]);
    assert!(started.elapsed() < Duration::from_secs(20), "the timeout did not stop the command");
    let out = run.json();
    assert_eq!(out["passed"], false);
    assert_eq!(out["tests"]["timedOut"], true);
    assert_eq!(out["tests"]["exitCode"], Value::Null);
    assert_eq!(out["tests"]["signal"], 9);
    assert!(out["tests"]["seconds"].as_f64().unwrap() >= 1.0);
    assert!(dead(&f.wait_for("sleeper.pid")), "the sleeping grandchild survived the timeout");
    f.assert_restored("test timeout");

    let run = f.trial(&["--test", "true", "--bench", "sleep 60", "--timeoutSec", "0.5"]);
    assert_eq!(run.code, 4, "{run:?}");
    assert!(run.stderr.contains("--timeoutSec"), "{}", run.stderr);
    assert_eq!(report(&run)["benchmark"]["timedOut"], true);
    f.assert_restored("benchmark timeout");
}

#[test]
fn bad_input_names_the_fix_and_leaves_the_target_alone() {
    let f = fixture();
    fs::create_dir(f.path("a-dir")).unwrap();
    let t = ["--test", "touch ran"];
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (vec![], 2, "nothing to run: pass --test"),
        (vec!["--test", "touch ran", "--candidate", "missing.py"], 3, "--candidate `missing.py` does not exist"),
        (vec!["--test", "touch ran", "--candidate", "a-dir"], 1, "is not a file"),
        (vec!["--test", "touch ran", "--judge", "missing.txt"], 3, "--judge `missing.txt` does not exist"),
        (vec!["--test", "touch ran", "--cwd", "missing-dir"], 3, "--cwd `missing-dir` is not a directory"),
        (vec!["--test", "touch ran", "--timeoutSec", "0"], 2, "not a positive number of seconds"),
        (vec!["--test", "touch ran", "--timeoutSec", "-5"], 2, "not a positive number of seconds"),
        (vec!["--test", "touch ran", "--timeoutSec", "soon"], 2, "invalid value"),
        (vec!["--test", "touch ran", "--bogus"], 2, "--bogus"),
    ];
    for (args, code, message) in cases {
        let run = f.trial(&args);
        assert_eq!(run.code, code, "{args:?}: {run:?}");
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert!(!f.path("ran").exists(), "{args:?}: the test ran");
        f.assert_restored(&format!("{args:?}"));
    }
    for (target, message) in [("missing.py", "does not exist"), ("no-dir/x.py", "its directory cannot be opened")] {
        let run = Run::from(
            command()
                .current_dir(f.dir.path())
                .args(["trial", "--target", target, "--candidate", "candidate.py"])
                .args(t)
                .output()
                .unwrap(),
        );
        assert_eq!(run.code, 3, "{target}: {run:?}");
        assert!(run.stderr.contains(message), "{target}: {}", run.stderr);
        assert!(!f.path(target).exists(), "{target} was created");
    }
    let run = Run::from(command().current_dir(f.dir.path()).args(["trial", "--target", "target.py"]).output().unwrap());
    assert_eq!(run.code, 2, "a missing --candidate: {run:?}");
    assert!(run.stderr.contains("--candidate"));
    f.assert_restored("bad input");
}

/// The run SIGKILLed while its test command sleeps leaves the candidate in place and the
/// original in the backup; the next trial of the target restores it first.
#[test]
fn a_killed_trial_is_recovered_by_the_next_one() {
    let f = fixture();
    for recovering_args in [vec!["--test", SWAPPED], vec!["--test", SWAPPED, "--candidate", "missing.py"]] {
        let mut trial = f.spawn(&["--test", "echo $$ > group.pid; sleep 60"]);
        let group = f.wait_for("group.pid");
        trial.kill().unwrap(); // SIGKILL: no handler runs
        trial.wait().unwrap();
        let _ = killpg(Pid::from_raw(group.parse().unwrap()), Signal::SIGKILL); // the orphaned test command
        fs::remove_file(f.path("group.pid")).unwrap();
        assert_eq!(fs::read(f.path("target.py")).unwrap(), CANDIDATE, "the killed trial left the candidate in place");
        assert_eq!(fs::read(f.path("target.py.evodb-trial.bak")).unwrap(), ORIGINAL, "and the original in the backup");

        let run = f.trial(&recovering_args);
        assert!(run.stderr.contains("left by an interrupted trial"), "{recovering_args:?}: {}", run.stderr);
        if run.code == 0 {
            let out = run.json();
            assert_eq!(out["recovered"], true);
            assert_eq!(out["passed"], true, "the recovering trial swapped its own candidate in: {out}");
        } else {
            assert_eq!(run.code, 3, "even a run with bad input recovers: {run:?}");
        }
        f.assert_restored(&format!("recovered by {recovering_args:?}"));
    }
}

#[test]
fn sigterm_and_sigint_kill_the_command_restore_and_exit_130() {
    let f = fixture();
    for signal in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP] {
        let trial = f.spawn(&["--test", "sleep 60 & echo $! > sleeper.pid; wait"]);
        let sleeper = f.wait_for("sleeper.pid");
        assert_eq!(fs::read(f.path("target.py")).unwrap(), CANDIDATE);
        kill(Pid::from_raw(trial.id() as i32), signal).unwrap();
        let run = Run::from(trial.wait_with_output().unwrap());
        assert_eq!(run.code, 130, "{signal}: {run:?}");
        assert!(run.stderr.contains("interrupted: restored"), "{signal}: {}", run.stderr);
        assert!(dead(&sleeper), "{signal}: the test command survived");
        fs::remove_file(f.path("sleeper.pid")).unwrap();
        f.assert_restored(&format!("{signal}"));
    }
}

#[test]
fn the_original_comes_back_whatever_the_commands_do_to_it() {
    let f = fixture();
    for test in ["test -x target.py && rm target.py", "echo junk > target.py; exit 1", "chmod 600 target.py"] {
        let out = f.trial(&["--test", test]).json();
        assert_eq!(out["restored"], true);
        f.assert_restored(test);
    }
}

#[test]
fn a_symlinked_target_swaps_the_file_it_points_to() {
    let f = fixture();
    symlink("target.py", f.path("link.py")).unwrap();
    let run = Run::from(
        command()
            .current_dir(f.dir.path())
            .args(["trial", "--target", "link.py", "--candidate", "candidate.py", "--test", SWAPPED])
            .output()
            .unwrap(),
    );
    assert_eq!(run.json()["passed"], true);
    assert!(fs::symlink_metadata(f.path("link.py")).unwrap().file_type().is_symlink());
    f.assert_restored("symlink");
}

#[test]
fn parallel_trials_of_one_target_queue() {
    let f = fixture();
    let names = ["a", "b", "c"];
    for name in names {
        f.write(&format!("cand_{name}.py"), &format!("candidate {name}\n"));
    }
    let workers: Vec<_> = names
        .iter()
        .map(|name| {
            let check = format!("cmp -s target.py cand_{name}.py");
            let mut cmd = f.args(&[
                "--candidate",
                &format!("cand_{name}.py"),
                "--test",
                &format!("{check} && sleep 0.3 && {check}"),
            ]);
            thread::spawn(move || Run::from(cmd.output().unwrap()))
        })
        .collect();
    for worker in workers {
        let run = worker.join().unwrap();
        assert_eq!(run.json()["passed"], true, "another trial swapped its candidate in meanwhile: {run:?}");
    }
    f.assert_restored("parallel");
}

#[test]
fn commands_run_in_cwd_and_output_keeps_its_end() {
    let f = fixture();
    fs::create_dir(f.path("sub")).unwrap();
    f.write("sub/here.txt", "x");
    let out = f.trial(&["--cwd", "sub", "--test", "test -f here.txt && seq 1 100000"]).json();
    assert_eq!(out["passed"], true);
    let output = out["tests"]["output"].as_str().unwrap();
    assert_eq!(output.chars().count(), 2000);
    assert!(output.ends_with("99999\n100000\n"));
    f.assert_restored("cwd");
}

#[test]
fn help_documents_the_output_and_exit_codes() {
    let run = Run::from(command().args(["trial", "--help"]).output().unwrap());
    assert_eq!(run.code, 0);
    for needle in ["--timeoutSec", "--scoreKey", "\"passed\"", "\"combined\"", "Exit codes", "retry", "130"] {
        assert!(run.stdout.contains(needle), "help lacks {needle}: {}", run.stdout);
    }
}
