//! `evodb add` in git mode: each candidate is a commit on its own branch. Branch and commit are
//! kept with the program, the code comes from the commit, and a diff against the parent
//! program's commit that touches a protected file or a file other than the target makes the
//! candidate an error with the policy's reason (never the best, never a parent).

use crate::cli;

use std::path::Path;

use cli::git_repo::Repo;
use cli::{Run, command};
use serde_json::Value;

const SEED: &str = "def f(x):\n    return x\n";

/// A repository with `src/f.py`, `benchmark.py` and `README`, its initial commit seeded into a
/// database in a sibling directory. Returns the repository, the scratch dir and the seed's id.
fn setup() -> (Repo, tempfile::TempDir, String) {
    let repo = Repo::with(&[("src/f.py", SEED), ("benchmark.py", "print(0.5)\n"), ("README", "project\n")]);
    let scratch = tempfile::tempdir().unwrap();
    let seed = add(&repo, &scratch.path().join("db"), &["--commit", "HEAD", "--target", "src/f.py", "--parentId", "0"]);
    assert_eq!(seed.code, 0, "{seed:?}");
    (repo, scratch, seed.json()["id"].as_str().unwrap().to_string())
}

fn add(repo: &Repo, db: &Path, args: &[&str]) -> Run {
    let mut cmd = command();
    cmd.current_dir(repo.root()).arg("add").arg(db).args(["--changes", "c"]).args(args);
    if !args.contains(&"--metrics") {
        cmd.args(["--metrics", r#"{"score": 0.5}"#]);
    }
    Run::from(cmd.output().expect("evodb runs"))
}

/// A branch from `from` with `files` changed, one commit per entry.
fn branch(repo: &Repo, name: &str, from: &str, commits: &[&[(&str, &str)]]) -> String {
    repo.git(&["checkout", "--quiet", "-b", name, from]);
    for files in commits {
        for (path, contents) in *files {
            repo.write(path, contents);
        }
        repo.git(&["commit", "--quiet", "-am", name]);
    }
    let commit = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    repo.git(&["checkout", "--quiet", "-"]);
    commit
}

fn program(db: &Path, id: &str) -> Value {
    let run = Run::from(command().arg("export").arg(db).output().unwrap());
    run.json()["programs"][id].clone()
}

#[test]
fn a_candidate_branch_is_read_and_recorded() {
    let (repo, scratch, seed) = setup();
    let db = scratch.path().join("db");
    let seed_commit = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    assert_eq!(program(&db, &seed)["commit"], seed_commit.as_str());
    assert_eq!(program(&db, &seed)["targetCode"], SEED);

    let code = "def f(x):\n    return x + 1\n";
    let commit = branch(&repo, "evo/r/gen-0/island-0/exploitation-0", "HEAD", &[&[("src/f.py", code)]]);
    let run = add(
        &repo,
        &db,
        &["--branch", "evo/r/gen-0/island-0/exploitation-0", "--target", "src/f.py", "--parentId", &seed],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(!run.stderr.contains("policy"), "{}", run.stderr);
    let id = run.json()["id"].as_str().unwrap().to_string();
    let stored = program(&db, &id);
    assert_eq!(stored["branch"], "evo/r/gen-0/island-0/exploitation-0");
    assert_eq!(stored["commit"], commit.as_str());
    assert_eq!(stored["targetCode"], code, "the code is the commit's");
    assert_eq!(stored["codePath"], "evo/r/gen-0/island-0/exploitation-0:src/f.py");
    assert_eq!(stored.get("status"), None, "accepted");

    // The fields survive every later save, and a retry with them is answered again.
    assert_eq!(add(&repo, &db, &["--targetCode", "x = 1", "--codePath", "/x.py", "--parentId", &id]).code, 0);
    assert_eq!(program(&db, &id)["commit"], commit.as_str());
    let retry = add(
        &repo,
        &db,
        &["--id", &id, "--branch", "evo/r/gen-0/island-0/exploitation-0", "--target", "src/f.py", "--parentId", &seed],
    );
    assert_eq!(retry.code, 0, "{retry:?}");
    assert!(retry.stderr.contains("already in the database"), "{}", retry.stderr);
    assert_eq!(Run::from(command().arg("validate").arg(&db).output().unwrap()).code, 0);
}

#[test]
fn a_diff_outside_the_target_or_on_a_protected_file_is_an_error_with_the_reason() {
    let (repo, scratch, seed) = setup();
    let db = scratch.path().join("db");
    let better = "def f(x):\n    return x + 2\n";
    branch(&repo, "evo/cheat", "HEAD", &[&[("src/f.py", better), ("benchmark.py", "print(1.0)\n")]]);
    let run = add(
        &repo,
        &db,
        &["--branch", "evo/cheat", "--target", "src/f.py", "--parentId", &seed, "--metrics", r#"{"score": 0.99}"#],
    );
    assert_eq!(run.code, 0, "{run:?}");
    let out = run.json();
    assert_eq!(out["status"], "error");
    assert_ne!(out["bestProgramId"], out["id"], "a policy violation never becomes the best");
    assert!(run.stderr.contains("policy: Protected file modified: 'benchmark.py'"), "{}", run.stderr);
    assert!(program(&db, out["id"].as_str().unwrap()).is_null(), "an error joins no island");

    // Two commits: the second touches only the target, the first another file. The diff is
    // taken against the parent program's commit, so the first still counts.
    branch(&repo, "evo/sneaky", "HEAD", &[&[("README", "edited\n")], &[("src/f.py", better)]]);
    let run = add(
        &repo,
        &db,
        &["--branch", "evo/sneaky", "--target", "src/f.py", "--parentId", &seed, "--protected", "none"],
    );
    assert_eq!(run.json()["status"], "error");
    assert!(run.stderr.contains("File outside the target modified: 'README'"), "{}", run.stderr);

    // The same code as the parent: nothing changed.
    branch(&repo, "evo/same", "HEAD", &[]);
    let run = add(&repo, &db, &["--branch", "evo/same", "--target", "src/f.py", "--parentId", &seed]);
    assert!(run.stderr.contains("No files changed"), "{}", run.stderr);
}

#[test]
fn bad_git_flags_name_the_problem_and_change_nothing() {
    let (repo, scratch, seed) = setup();
    let db = scratch.path().join("db");
    let before = std::fs::read(db.join("database.json")).unwrap();

    let missing = add(&repo, &db, &["--branch", "evo/none", "--target", "src/f.py", "--parentId", &seed]);
    assert_eq!(missing.code, 3, "{missing:?}");
    assert!(missing.stderr.contains("`evo/none` names no commit"), "{}", missing.stderr);

    let no_file = add(&repo, &db, &["--commit", "HEAD", "--target", "src/g.py", "--parentId", &seed]);
    assert_eq!(no_file.code, 3, "{no_file:?}");

    let alone =
        add(&repo, &db, &["--target", "src/f.py", "--parentId", &seed, "--codePath", "/f", "--targetCode", "x"]);
    assert_eq!(alone.code, 2, "{alone:?}");
    assert!(alone.stderr.contains("pass --branch or --commit"), "{}", alone.stderr);

    branch(&repo, "evo/a", "HEAD", &[&[("src/f.py", "a = 1\n")]]);
    let mismatch =
        add(&repo, &db, &["--branch", "evo/a", "--commit", "HEAD", "--target", "src/f.py", "--parentId", &seed]);
    assert_eq!(mismatch.code, 1, "{mismatch:?}");
    assert!(mismatch.stderr.contains("is not the commit of --branch evo/a"), "{}", mismatch.stderr);

    let outside = tempfile::tempdir().unwrap();
    let mut cmd = command();
    cmd.current_dir(outside.path()).arg("add").arg(&db).args([
        "--commit",
        "HEAD",
        "--parentId",
        "0",
        "--metrics",
        "{}",
    ]);
    let run = Run::from(cmd.output().unwrap());
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("is in none"), "{}", run.stderr);
    assert_eq!(std::fs::read(db.join("database.json")).unwrap(), before);
}

fn tidy(repo: &Repo, db: &Path, args: &[&str]) -> Run {
    let mut cmd = command();
    cmd.current_dir(repo.root()).arg("git-tidy").arg(db).args(["--prefix", "evo/r/"]).args(args);
    Run::from(cmd.output().expect("evodb runs"))
}

fn branches(repo: &Repo) -> Vec<String> {
    repo.git(&["for-each-ref", "--format=%(refname:short)", "refs/heads/"]).lines().map(String::from).collect()
}

#[test]
fn git_tidy_tags_the_best_and_deletes_only_the_branches_of_programs_gone() {
    let (repo, scratch, _) = setup();
    let db = scratch.path().join("db");
    let mut cmd = command();
    let plan = Run::from(cmd.arg("plan").arg(&db).arg("3").output().unwrap()).json();
    let item = |k: usize| plan["items"][k]["name"].as_str().unwrap().to_string();
    let parent = plan["items"][0]["parentIds"][0].as_str().unwrap().to_string();
    let good =
        branch(&repo, &format!("evo/r/{}", item(0)), "HEAD", &[&[("src/f.py", "def f(x):\n    return 2 * x\n")]]);
    branch(&repo, &format!("evo/r/{}", item(1)), "HEAD", &[&[("benchmark.py", "print(1)\n")]]);
    branch(&repo, &format!("evo/r/{}", item(2)), "HEAD", &[&[("src/f.py", "pending = 1\n")]]);
    branch(&repo, "evo/r/gen-9/stale", "HEAD", &[&[("src/f.py", "old = 1\n")]]);
    branch(&repo, "feature/mine", "HEAD", &[&[("README", "mine\n")]]);
    for (k, score) in [(0, "0.9"), (1, "0.95")] {
        let metrics = format!("{{\"score\": {score}}}");
        let b = format!("evo/r/{}", item(k));
        let run = add(
            &repo,
            &db,
            &[
                "--branch",
                &b,
                "--target",
                "src/f.py",
                "--planItem",
                &item(k),
                "--parentId",
                &parent,
                "--metrics",
                &metrics,
            ],
        );
        assert_eq!(run.code, 0, "{run:?}");
    }
    let before = branches(&repo);

    let dry = tidy(&repo, &db, &["--dryRun"]).json();
    assert_eq!(dry["deleted"], serde_json::json!([format!("evo/r/{}", item(1)), "evo/r/gen-9/stale"]));
    assert_eq!(branches(&repo), before, "a dry run changes nothing");
    assert!(repo.git(&["tag"]).trim().is_empty());

    let out = tidy(&repo, &db, &[]).json();
    assert_eq!(out["tagged"]["tag"], "best-gen-0");
    assert_eq!(out["tagged"]["commit"], good.as_str(), "the policy error is not the best: {out}");
    assert_eq!(repo.git(&["rev-parse", "best-gen-0^{commit}"]).trim(), good);
    assert_eq!(out["kept"], serde_json::json!([format!("evo/r/{}", item(0)), format!("evo/r/{}", item(2))]));
    let left = branches(&repo);
    assert!(left.contains(&"feature/mine".to_string()), "branches outside the prefix stay: {left:?}");
    assert!(!left.iter().any(|b| b.ends_with("stale")), "{left:?}");

    let again = tidy(&repo, &db, &[]).json();
    assert_eq!(again["tagged"], Value::Null, "the tag exists already");
    assert_eq!(again["deleted"], serde_json::json!([]));
}

/// Issue 37: `git-tidy --dryRun` predicted the deletion of a branch checked out in a worktree,
/// which the real run then refused. Both now keep it, with the same warning, and the dry run's
/// answer is exactly the real run's.
#[test]
fn git_tidy_dry_run_predicts_the_real_run_for_a_branch_checked_out_in_a_worktree() {
    let (repo, scratch, _) = setup();
    let db = scratch.path().join("db");
    assert_eq!(Run::from(command().arg("plan").arg(&db).arg("1").output().unwrap()).code, 0);
    branch(&repo, "evo/r/gen-9/busy", "HEAD", &[&[("src/f.py", "busy = 1\n")]]);
    branch(&repo, "evo/r/gen-9/stale", "HEAD", &[&[("src/f.py", "old = 1\n")]]);
    let elsewhere = scratch.path().join("busy-worktree");
    repo.git(&["worktree", "add", elsewhere.to_str().unwrap(), "evo/r/gen-9/busy"]);

    let dry = tidy(&repo, &db, &["--dryRun"]);
    let real = tidy(&repo, &db, &[]);
    let (dry_out, real_out) = (dry.json(), real.json());
    for key in ["deleted", "kept", "tagged"] {
        assert_eq!(dry_out[key], real_out[key], "{key}: dry {dry_out} vs real {real_out}");
    }
    assert_eq!(real_out["deleted"], serde_json::json!(["evo/r/gen-9/stale"]));
    assert_eq!(real_out["kept"], serde_json::json!(["evo/r/gen-9/busy"]));
    assert!(dry.stderr.contains("kept `evo/r/gen-9/busy`: it is checked out"), "{dry:?}");
    assert_eq!(dry.stderr, real.stderr, "the same warning either way");
    assert!(branches(&repo).contains(&"evo/r/gen-9/busy".to_string()));
}
