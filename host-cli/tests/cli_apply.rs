//! `evodb apply`: the best (or a named) program lands in the target as one commit, and only when
//! its tests pass with it in place; every refusal leaves the files and the history as they were.

use crate::cli;

use std::fs;
use std::path::Path;

use cli::git_repo::Repo;
use cli::{Run, command, evodb};
use serde_json::Value;
use tempfile::TempDir;

const ORIGINAL: &str = "def f(x):\n    return x\n";
const BEST: &str = "def f(x):\n    return x + 1  # best\n";
const OTHER: &str = "def f(x):\n    return x + 2  # other\n";
/// Passes only with the best program in place.
const TEST_BEST: &str = "grep -q best src/f.py";

/// A repository holding `src/f.py` and a database whose best program is [`BEST`].
fn setup() -> (Repo, TempDir, String, String) {
    let repo = Repo::with(&[("src/f.py", ORIGINAL), ("README", "project\n")]);
    let scratch = tempfile::tempdir().unwrap();
    let db = scratch.path().join("db");
    let added = |code: &str, score: &str| {
        let run = evodb(&[
            "add",
            db.to_str().unwrap(),
            "--codePath",
            "/c.py",
            "--targetCode",
            code,
            "--parentId",
            "0",
            "--changes",
            "a change",
            "--metrics",
            &format!("{{\"score\": {score}}}"),
        ]);
        run.json()["id"].as_str().unwrap().to_string()
    };
    // The run evolved the whole file: its first program is the file as committed.
    added(ORIGINAL, "0.1");
    let best = added(BEST, "0.9");
    let other = added(OTHER, "0.5");
    (repo, scratch, best, other)
}

fn apply(repo: &Repo, db: &Path, args: &[&str]) -> Run {
    let mut cmd = command();
    cmd.current_dir(repo.root()).arg("apply").arg(db).args(args);
    Run::from(cmd.output().expect("evodb runs"))
}

fn stdout_json(run: &Run) -> Value {
    serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {run:?}"))
}

fn commits(repo: &Repo) -> usize {
    repo.git(&["rev-list", "--count", "HEAD"]).trim().parse().unwrap()
}

#[test]
fn the_best_program_is_committed_alone_once_its_tests_pass() {
    let (repo, scratch, best, _) = setup();
    let db = scratch.path().join("db");
    repo.write("README", "project, edited and staged\n");
    repo.git(&["add", "README"]);
    let run = apply(&repo, &db, &["--target", "src/f.py", "--test", TEST_BEST]);
    assert_eq!(run.code, 0, "{run:?}");
    let out = stdout_json(&run);
    assert_eq!(out["applied"], true);
    assert_eq!(out["id"], best.as_str());
    assert_eq!(out["trial"]["isolation"], "worktree");
    assert_eq!(fs::read_to_string(repo.path("src/f.py")).unwrap(), BEST);
    assert_eq!(commits(&repo), 2);
    assert_eq!(repo.git(&["rev-parse", "HEAD"]).trim(), out["commit"].as_str().unwrap());
    let message = repo.git(&["log", "-1", "--format=%B"]);
    assert!(message.starts_with(&format!("evodb: apply program {best}")), "{message}");
    assert!(message.contains("\"score\":0.9") && message.contains("a change"), "{message}");
    assert_eq!(repo.git(&["show", "--name-only", "--format=", "HEAD"]).trim(), "src/f.py");
    assert_eq!(repo.git(&["status", "--porcelain"]), "M  README\n", "the staged README stays staged, uncommitted");
    assert!(repo.worktrees().is_empty());

    let again = apply(&repo, &db, &["--target", "src/f.py", "--test", TEST_BEST]);
    assert_eq!(again.code, 0, "{again:?}");
    assert_eq!(stdout_json(&again)["applied"], false);
    assert!(again.stderr.contains("already holds program"), "{}", again.stderr);
    assert_eq!(commits(&repo), 2);
}

#[test]
fn a_named_program_whose_tests_fail_changes_nothing() {
    let (repo, scratch, _, other) = setup();
    let db = scratch.path().join("db");
    let before = repo.state();
    let run = apply(&repo, &db, &[&other, "--target", "src/f.py", "--test", TEST_BEST]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("the tests fail") && run.stderr.contains("nothing was changed"), "{}", run.stderr);
    let out = stdout_json(&run);
    assert_eq!(out["applied"], false);
    assert_eq!(out["id"], other.as_str());
    assert_eq!(out["trial"]["passed"], false);
    assert_eq!(repo.state(), before);
    assert_eq!(commits(&repo), 1);

    let run =
        apply(&repo, &db, &[&other, "--target", "src/f.py", "--test", "grep -q other src/f.py", "--message", "mine"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(fs::read_to_string(repo.path("src/f.py")).unwrap(), OTHER);
    assert_eq!(repo.git(&["log", "-1", "--format=%s"]).trim(), "mine");
}

#[test]
fn refusals_name_the_problem_and_change_nothing() {
    let (repo, scratch, _, _) = setup();
    let db = scratch.path().join("db");
    let target = ["--target", "src/f.py", "--test", "true"];

    let unknown = apply(&repo, &db, &["no-such-id", "--target", "src/f.py", "--test", "true"]);
    assert_eq!(unknown.code, 3, "{unknown:?}");
    assert!(unknown.stderr.contains("no live program has id `no-such-id`"), "{}", unknown.stderr);

    let empty = apply(&repo, &scratch.path().join("empty"), &target);
    assert_eq!(empty.code, 3, "{empty:?}");
    assert!(empty.stderr.contains("no program yet"), "{}", empty.stderr);

    repo.write("src/f.py", "def f(x):\n    return x  # my own edit\n");
    let before = repo.state();
    let dirty = apply(&repo, &db, &target);
    assert_eq!(dirty.code, 1, "{dirty:?}");
    assert!(dirty.stderr.contains("uncommitted changes"), "{}", dirty.stderr);
    assert_eq!(repo.state(), before);
    repo.git(&["checkout", "--", "src/f.py"]);

    let missing = apply(&repo, &db, &["--target", "src/missing.py", "--test", "true"]);
    assert_eq!(missing.code, 3, "{missing:?}");

    let no_test = apply(&repo, &db, &["--target", "src/f.py"]);
    assert_eq!(no_test.code, 2, "{no_test:?}");

    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("f.py"), ORIGINAL).unwrap();
    let mut cmd = command();
    cmd.current_dir(outside.path()).arg("apply").arg(&db).args(["--target", "f.py", "--test", "true"]);
    let run = Run::from(cmd.output().unwrap());
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("not in a git repository"), "{}", run.stderr);
    assert_eq!(fs::read_to_string(outside.path().join("f.py")).unwrap(), ORIGINAL);
    assert_eq!(commits(&repo), 1);
}

#[test]
fn a_commit_git_refuses_puts_the_file_back() {
    let (repo, scratch, _, _) = setup();
    let db = scratch.path().join("db");
    // No identity anywhere: git refuses to commit.
    repo.git(&["config", "--unset", "user.name"]);
    repo.git(&["config", "--unset", "user.email"]);
    repo.git(&["config", "user.useConfigOnly", "true"]);
    let before = repo.state();
    let home = tempfile::tempdir().unwrap();
    let mut cmd = command();
    cmd.current_dir(repo.root())
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .arg("apply")
        .arg(&db)
        .args(["--target", "src/f.py", "--test", TEST_BEST]);
    let run = Run::from(cmd.output().unwrap());
    assert_eq!(run.code, 5, "{run:?}");
    assert!(run.stderr.contains("the file is restored") && run.stderr.contains("user.name"), "{}", run.stderr);
    assert_eq!(repo.state(), before);
    assert_eq!(commits(&repo), 1);
}

/// A module whose one function the run evolved (the seed skill stores the target's definition).
const MODULE: &str = "\"\"\"Helpers.\"\"\"\nimport os\n\ndef f(x):\n    return x\n\ndef g():\n    return f(os.sep)\n";
const F_FASTER: &str = "def f(x):\n    return x  # faster\n";

/// Issue 37's regression: `apply` of a function-level program wrote the definition over the
/// whole module. It now goes where its ancestor's definition stands, and the rest stays.
#[test]
fn a_definition_is_spliced_into_its_module_and_the_rest_stays() {
    let repo = Repo::with(&[("src/m.py", MODULE)]);
    let scratch = tempfile::tempdir().unwrap();
    let db = scratch.path().join("db");
    let db_arg = db.to_str().unwrap();
    let seed =
        evodb(&["seed", db_arg, "--codePath", "src/m.py", "--targetCode", ORIGINAL, "--metrics", r#"{"score": 0.1}"#]);
    let parent = seed.json()["id"].as_str().unwrap().to_string();
    let child = evodb(&[
        "add",
        db_arg,
        "--codePath",
        "src/m.py",
        "--targetCode",
        F_FASTER,
        "--parentId",
        &parent,
        "--changes",
        "faster",
        "--metrics",
        r#"{"score": 0.9}"#,
    ]);
    let child = child.json()["id"].as_str().unwrap().to_string();
    let test = "grep -q 'import os' src/m.py && grep -q 'def g' src/m.py && grep -q faster src/m.py";
    let run = apply(&repo, &db, &["--target", "src/m.py", "--test", test]);
    assert_eq!(run.code, 0, "{run:?}");
    let out = stdout_json(&run);
    assert_eq!((out["applied"].as_bool(), out["id"].as_str()), (Some(true), Some(child.as_str())));
    assert_eq!((out["placement"].as_str(), out["replaced"].as_str()), (Some("definition"), Some(parent.as_str())));
    assert_eq!(fs::read_to_string(repo.path("src/m.py")).unwrap(), MODULE.replace(ORIGINAL, F_FASTER));
    assert_eq!(commits(&repo), 2);
}

/// A file the run cannot place the code in (no program is the file, none stands in it) is
/// refused, not overwritten.
#[test]
fn a_file_no_program_stands_in_is_refused_and_kept() {
    let repo = Repo::with(&[("src/m.py", "print('unrelated')\n")]);
    let scratch = tempfile::tempdir().unwrap();
    let db = scratch.path().join("db");
    let seed = evodb(&[
        "seed",
        db.to_str().unwrap(),
        "--codePath",
        "m.py",
        "--targetCode",
        F_FASTER,
        "--metrics",
        r#"{"s": 1}"#,
    ]);
    seed.json();
    let before = repo.state();
    let run = apply(&repo, &db, &["--target", "src/m.py", "--test", "true"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("cannot tell where program") && run.stderr.contains("by hand"), "{}", run.stderr);
    assert_eq!(repo.state(), before);
}
