//! Hardening II, git mode, apply, trial and the write path: the hostile review's cases and their
//! neighbours, as one catalogue. Each case checks the exit code, the message, and that nothing in
//! the sandbox's `outside/` directory changed (no file written, truncated or created through data
//! that reached git or a path).

use crate::cli;

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use cli::catalogue::{Case, Sandbox, expect, tree};
use cli::git_repo::Repo;
use cli::{Run, command, evodb};
use serde_json::{Value, json};

const SEED: &str = "def f(x):\n    return x\n";
const BEST: &str = "def f(x):\n    return x + 1  # best\n";

/// Option-shaped or otherwise bad `commit` values a run's writer could store.
const BAD_COMMITS: [&str; 8] = [
    "--output=VICTIM",
    "-oVICTIM",
    "--file=SECRET",
    "HEAD",
    "HEAD~1",
    "abc",
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0",
    "deadbeef --exec=touch VICTIM",
];

/// Branch names git would read as an option, or refuse.
const BAD_BRANCHES: [&str; 8] = ["-D", "--force", "a..b", "has space", "a:b", ".hidden", "x.lock", "@{-1}"];

/// A repository with `src/f.py`, a database seeded from its commit (git mode), in a sandbox.
struct GitRun {
    sandbox: Sandbox,
    repo: Repo,
    db: PathBuf,
    seed: String,
}

fn git_run() -> GitRun {
    let sandbox = Sandbox::new();
    let repo = Repo::with(&[("src/f.py", SEED), ("README", "project\n")]);
    let db = sandbox.path("db");
    let run = in_repo(
        &repo,
        &["add", db.to_str().unwrap(), "--commit", "HEAD", "--target", "src/f.py"],
        &["--parentId", "0", "--changes", "c", "--metrics", r#"{"score": 0.5}"#],
    );
    let seed = run.json()["id"].as_str().unwrap().to_string();
    GitRun { sandbox, repo, db, seed }
}

fn in_repo(repo: &Repo, args: &[&str], more: &[&str]) -> Run {
    Run::from(command().current_dir(repo.root()).args(args).args(more).output().expect("evodb runs"))
}

impl GitRun {
    /// Rewrites database.json with `edit` applied, as a hostile writer of the run would.
    fn tamper(&self, edit: impl FnOnce(&mut Value)) {
        let path = self.db.join("database.json");
        let mut database: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        edit(&mut database);
        fs::write(&path, serde_json::to_string_pretty(&database).unwrap()).unwrap();
    }

    /// `value` with VICTIM/SECRET made paths into the sandbox's victim directory.
    fn aimed(&self, value: &str) -> String {
        value
            .replace("VICTIM", self.sandbox.outside().join("victim.txt").to_str().unwrap())
            .replace("SECRET", self.sandbox.outside().join("id_rsa").to_str().unwrap())
    }

    fn set_program_field(&self, field: &str, value: &str) {
        let (id, value) = (self.seed.clone(), self.aimed(value));
        self.tamper(|db| db["programs"][&id][field] = json!(value));
    }

    fn db_files(&self) -> Vec<(PathBuf, Vec<u8>)> {
        tree(&self.db)
    }

    fn tags(&self) -> String {
        self.repo.git(&["tag", "--list"])
    }
}

/// A command on a run whose seed's `field` holds `value`: refused with a message naming the
/// field, the run's files and the victim untouched, and (for git-tidy) no tag made.
fn refused_with_stored(field: &str, value: &str, command: &str) {
    let run = git_run();
    run.set_program_field(field, value);
    let before = run.db_files();
    let db = run.db.to_str().unwrap().to_string();
    let result = match command {
        "info" => evodb(&["info", &db]),
        "validate" => evodb(&["validate", &db]),
        "add-git" => {
            run.repo.git(&["checkout", "--quiet", "-b", "cand"]);
            run.repo.write("src/f.py", BEST);
            run.repo.git(&["commit", "--quiet", "-am", "cand"]);
            in_repo(
                &run.repo,
                &["add", &db, "--branch", "cand", "--target", "src/f.py"],
                &["--parentId", &run.seed, "--changes", "c", "--metrics", r#"{"score": 0.9}"#],
            )
        }
        "git-tidy" => in_repo(&run.repo, &["git-tidy", &db, "--prefix", "evo/"], &[]),
        other => unreachable!("{other}"),
    };
    assert_ne!(result.code, 0, "{command} on a stored {field} `{value}` must fail: {result:?}");
    let said = format!("{}{}", result.stdout, result.stderr);
    assert!(said.contains(field), "the message names `{field}`: {result:?}");
    assert!(said.contains("git"), "the message says why (git): {result:?}");
    run.sandbox.assert_outside_unchanged(&format!("{command} with {field} {value}"));
    assert_eq!(run.db_files(), before, "{command}: the run's files are unchanged");
    assert_eq!(run.tags(), "", "{command}: no tag was made");
}

macro_rules! stored_cases {
    ($field:literal, $values:ident, $($command:literal),+) => {{
        let mut cases = Vec::new();
        $(
            cases.extend($values.iter().map(|&value| {
                Case::new(
                    format!("stored {} `{}` refused by {}", $field, value, $command),
                    move || refused_with_stored($field, value, $command),
                )
            }));
        )+
        cases
    }};
}

/// `add --branch <bad>` in git mode: a usage error before git runs.
fn add_with_bad_branch(branch: &'static str) {
    let run = git_run();
    let before = run.db_files();
    let db = run.db.to_str().unwrap().to_string();
    let branch_flag = format!("--branch={branch}");
    let result = in_repo(
        &run.repo,
        &["add", &db, &branch_flag, "--target", "src/f.py"],
        &["--parentId", &run.seed, "--changes", "c", "--metrics", r#"{"score": 0.9}"#],
    );
    expect(&result, 2, &["--branch", "git branch name"]);
    assert_eq!(run.db_files(), before);
    run.sandbox.assert_outside_unchanged("add --branch");
}

/// `add --commit <option-shaped>`: git reads it as a revision, never an option.
fn add_with_option_shaped_commit() {
    let run = git_run();
    let before = run.db_files();
    let db = run.db.to_str().unwrap().to_string();
    let commit = format!("--commit=--output={}", run.sandbox.outside().join("victim.txt").display());
    let result = in_repo(
        &run.repo,
        &["add", &db, &commit, "--target", "src/f.py"],
        &["--parentId", &run.seed, "--changes", "c", "--metrics", r#"{"score": 0.9}"#],
    );
    expect(&result, 3, &["names no commit"]);
    assert_eq!(run.db_files(), before);
    run.sandbox.assert_outside_unchanged("add --commit --output=");
}

/// A plan item holding an answer with an option-shaped commit: the load refuses the run.
fn held_answer_with_bad_commit() {
    let run = git_run();
    let db = run.db.to_str().unwrap().to_string();
    let plan = evodb(&["plan", &db, "2"]);
    let plan = plan.json();
    let second = plan["items"][1]["name"].as_str().unwrap().to_string();
    let parent = plan["items"][1]["parent"]["id"].as_str().unwrap_or(&run.seed).to_string();
    let held = evodb(&[
        "add",
        &db,
        "--planItem",
        &second,
        "--parentId",
        &parent,
        "--codePath",
        "c.py",
        "--targetCode",
        "x = 2\n",
        "--changes",
        "c",
        "--metrics",
        r#"{"score": 0.7}"#,
    ]);
    assert_eq!(held.code, 0, "{held:?}");
    let victim = run.aimed("--output=VICTIM");
    run.tamper(|db| {
        for item in db["evodb"]["pending"].as_array_mut().unwrap() {
            if item["held"].is_object() {
                item["held"]["request"]["commit"] = json!(victim.clone());
            }
        }
    });
    let result = evodb(&["info", &db]);
    assert_ne!(result.code, 0, "{result:?}");
    assert!(result.stderr.contains("holds an answer whose `commit`"), "{result:?}");
    run.sandbox.assert_outside_unchanged("held answer");
}

// --- apply -------------------------------------------------------------------------------------

/// A repository with `src/f.py` tracked, and a database whose best program is [`BEST`].
fn apply_fixture() -> (Sandbox, Repo, PathBuf) {
    let sandbox = Sandbox::new();
    let repo = Repo::with(&[("src/f.py", SEED), ("README", "project\n"), (".gitignore", "ignored.py\n")]);
    let db = sandbox.path("db");
    // The run evolved the whole file: its first program is the file as committed.
    let first = ["add", db.to_str().unwrap(), "--codePath", "c.py", "--targetCode", SEED, "--parentId", "0"];
    evodb(&[&first[..], &["--changes", "c", "--metrics", r#"{"score": 0.1}"#]].concat()).json();
    let run = evodb(&[
        "add",
        db.to_str().unwrap(),
        "--codePath",
        "c.py",
        "--targetCode",
        BEST,
        "--parentId",
        "0",
        "--changes",
        "c",
        "--metrics",
        r#"{"score": 0.9}"#,
    ]);
    run.json();
    (sandbox, repo, db)
}

fn apply(repo: &Repo, db: &Path, target: &str) -> Run {
    in_repo(repo, &["apply", db.to_str().unwrap(), "--target", target, "--test", "true"], &[])
}

fn apply_through_a_planted_temp_symlink() {
    let (sandbox, repo, db) = apply_fixture();
    let victim = sandbox.outside().join("victim.txt");
    symlink(&victim, repo.path("src/f.py.evodb-apply.tmp")).unwrap();
    let result = apply(&repo, &db, "src/f.py");
    assert_eq!(result.code, 0, "{result:?}");
    assert!(fs::symlink_metadata(repo.path("src/f.py")).unwrap().is_file(), "the target stays a regular file");
    assert_eq!(fs::read_to_string(repo.path("src/f.py")).unwrap(), BEST);
    assert!(fs::symlink_metadata(repo.path("src/f.py.evodb-apply.tmp")).unwrap().file_type().is_symlink());
    let committed = repo.git(&["ls-tree", "HEAD", "--", "src/f.py"]);
    assert!(committed.starts_with("100644"), "committed as a file, not a link: {committed}");
    sandbox.assert_outside_unchanged("apply with a planted temp link");
}

fn apply_refuses(target: &str, setup: fn(&Sandbox, &Repo), fragments: &[&str]) {
    let (sandbox, repo, db) = apply_fixture();
    setup(&sandbox, &repo);
    let before = repo.state();
    let result = apply(&repo, &db, target);
    expect(&result, 2, fragments);
    assert_eq!(repo.state(), before, "the repository is unchanged");
    sandbox.assert_outside_unchanged(target);
}

// --- trial -------------------------------------------------------------------------------------

/// A plain directory (no repository) with `target.py` and `candidate.py`, inside the sandbox.
fn trial_dir() -> (Sandbox, PathBuf) {
    let sandbox = Sandbox::new();
    let dir = sandbox.path("work");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("target.py"), SEED).unwrap();
    fs::write(dir.join("candidate.py"), BEST).unwrap();
    (sandbox, dir)
}

fn trial(dir: &Path, extra: &[&str]) -> Run {
    Run::from(
        command()
            .current_dir(dir)
            .args(["trial", "--target", "target.py", "--candidate", "candidate.py", "--test", "true"])
            .args(extra)
            .output()
            .unwrap(),
    )
}

/// A planted file beside the target: the trial refuses (or ignores) it, never follows it; the
/// target keeps its bytes and stays a regular file.
fn trial_with_planted(name: &str, plant: fn(&Sandbox, &Path), refused: bool) {
    let (sandbox, dir) = trial_dir();
    plant(&sandbox, &dir.join(name));
    let result = trial(&dir, &["--inPlace"]);
    if refused {
        assert_ne!(result.code, 0, "{result:?}");
        assert!(result.stderr.contains(name), "the message names `{name}`: {result:?}");
    } else {
        assert_eq!(result.code, 0, "{result:?}");
    }
    assert!(fs::symlink_metadata(dir.join("target.py")).unwrap().is_file(), "{result:?}");
    assert_eq!(fs::read_to_string(dir.join("target.py")).unwrap(), SEED, "the original is kept: {result:?}");
    sandbox.assert_outside_unchanged(name);
}

fn link_to_victim(sandbox: &Sandbox, at: &Path) {
    symlink(sandbox.outside().join("victim.txt"), at).unwrap();
}

fn link_to_missing(sandbox: &Sandbox, at: &Path) {
    symlink(sandbox.outside().join("created-by-evodb"), at).unwrap();
}

fn fifo(_: &Sandbox, at: &Path) {
    nix::unistd::mkfifo(at, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
}

fn directory(_: &Sandbox, at: &Path) {
    fs::create_dir(at).unwrap();
}

fn trial_of_an_ignored_target() {
    let sandbox = Sandbox::new();
    let repo = Repo::with(&[("README", "x\n"), (".gitignore", "target.py\n")]);
    repo.write("target.py", SEED);
    repo.write("candidate.py", BEST);
    let result = trial(repo.root(), &[]);
    expect(&result, 2, &["ignored by git", "--inPlace"]);
    assert_eq!(fs::read_to_string(repo.path("target.py")).unwrap(), SEED);
    sandbox.assert_outside_unchanged("ignored target");
}

/// A repository git refuses (owned by another user): no silent fallback to swapping in place.
fn trial_in_a_repository_git_refuses() {
    if !nix::unistd::Uid::effective().is_root() {
        println!("skipped: trial in a repository git refuses needs root to give the repository away");
        return;
    }
    let repo = Repo::with(&[("README", "x\n"), ("target.py", SEED)]);
    repo.write("candidate.py", BEST);
    let nobody = nix::unistd::Uid::from_raw(65534);
    for entry in tree(repo.root()).iter().map(|(p, _)| p.clone()).chain([repo.root().to_path_buf()]) {
        nix::unistd::chown(&entry, Some(nobody), None).unwrap();
    }
    nix::unistd::chown(&repo.root().join(".git"), Some(nobody), None).unwrap();
    let result = Run::from(
        command()
            .current_dir(repo.root())
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .args(["trial", "--target", "target.py", "--candidate", "candidate.py", "--test", "true"])
            .output()
            .unwrap(),
    );
    expect(&result, 2, &["git refuses the repository", "--inPlace"]);
    use std::os::unix::fs::MetadataExt;
    assert_eq!(fs::metadata(repo.path("target.py")).unwrap().uid(), 65534, "the file keeps its owner");
}

// --- the write path and validate agree -----------------------------------------------------------

fn refused_add(setup_child_first: bool) {
    let sandbox = Sandbox::new();
    let db = sandbox.path("db");
    let db_s = db.to_str().unwrap();
    let add = |id: &str, parent: &str| {
        evodb(&[
            "add",
            db_s,
            "--id",
            id,
            "--parentId",
            parent,
            "--codePath",
            "c.py",
            "--targetCode",
            &format!("x = '{id}'\n"),
            "--changes",
            "c",
            "--metrics",
            r#"{"score": 0.5}"#,
        ])
    };
    add("root", "0").json();
    let result = if setup_child_first {
        add("child", "later").json();
        let before = tree(&db);
        let result = add("later", "root");
        assert_eq!(tree(&db), before, "nothing stored");
        result
    } else {
        let before = tree(&db);
        let result = add("self", "self");
        assert_eq!(tree(&db), before, "nothing stored");
        result
    };
    if setup_child_first {
        expect(&result, 1, &["`later`, which program `child` already names as its parent", "pass another --id"]);
    } else {
        expect(&result, 1, &["cannot be its own parent"]);
    }
    assert_eq!(evodb(&["validate", db_s]).code, 0, "the run stays valid");
}

// --- the engine under an address-space limit -----------------------------------------------------

fn under_a_small_address_space_limit() {
    let sandbox = Sandbox::new();
    let db = sandbox.path("db");
    let script = format!("ulimit -v 1000000 && exec \"$0\" info '{}'", db.display());
    let result = Run::from(
        std::process::Command::new("sh").args(["-c", &script, env!("CARGO_BIN_EXE_evodb")]).output().unwrap(),
    );
    expect(&result, 4, &["address space", "ulimit -v"]);
    assert!(!result.stderr.contains("bug in evodb"), "{result:?}");
    assert!(!db.exists(), "nothing was created");
}

// --- a database path that is a dangling symlink ----------------------------------------------------

fn dangling_symlink_database_path(write: bool) {
    let sandbox = Sandbox::new();
    let db = sandbox.path("db");
    symlink(sandbox.outside().join("missing"), &db).unwrap();
    let db_s = db.to_str().unwrap();
    let result = if write { evodb(&cli::seed_args(&db)) } else { evodb(&["info", db_s]) };
    expect(&result, 5, &["is a symbolic link to", "does not exist"]);
    assert!(!result.stderr.contains("File exists"), "{result:?}");
    sandbox.assert_outside_unchanged("dangling db path");
}

// --- skill and playbook install --------------------------------------------------------------------

fn install_through_symlinked_subdir(command_args: &[&str], sub: &str) {
    let sandbox = Sandbox::new();
    let dir = sandbox.path("skill");
    fs::create_dir(&dir).unwrap();
    symlink(sandbox.outside(), dir.join(sub)).unwrap();
    let before = tree(&dir);
    let mut args: Vec<&str> = command_args.to_vec();
    let dir_s = dir.to_str().unwrap().to_string();
    args.push(&dir_s);
    args.push("--force");
    let result = evodb(&args);
    expect(&result, 5, &["is a symbolic link"]);
    assert_eq!(tree(&dir), before, "nothing was written before the refusal");
    sandbox.assert_outside_unchanged("install");
}

#[test]
fn hostile_git_apply_trial_catalogue() {
    let mut cases: Vec<Case> = Vec::new();
    cases.extend(stored_cases!("commit", BAD_COMMITS, "info", "validate", "add-git", "git-tidy"));
    cases.extend(stored_cases!("branch", BAD_BRANCHES, "info", "validate"));
    for branch in BAD_BRANCHES {
        cases.push(Case::new(format!("add --branch `{branch}` is a usage error"), move || add_with_bad_branch(branch)));
    }
    let fixed: [(&'static str, fn()); 22] = [
        ("add --commit=--output=… reads a revision, not an option", add_with_option_shaped_commit),
        ("a held answer with an option-shaped commit is refused on load", held_answer_with_bad_commit),
        ("apply never writes through a planted .evodb-apply.tmp symlink", apply_through_a_planted_temp_symlink),
        ("apply refuses a target symlinked out of the repository", || {
            apply_refuses(
                "src/link.py",
                |sandbox, repo| symlink(sandbox.outside().join("victim.txt"), repo.path("src/link.py")).unwrap(),
                &["leads out of the repository"],
            );
        }),
        ("apply refuses an untracked target", || {
            apply_refuses("src/new.py", |_, repo| repo.write("src/new.py", SEED), &["not tracked by git", "--inPlace"]);
        }),
        ("apply refuses a git-ignored target", || {
            apply_refuses("ignored.py", |_, repo| repo.write("ignored.py", SEED), &["not tracked by git", "--inPlace"]);
        }),
        ("apply refuses a directory as its target", || {
            apply_refuses("src", |_, _| {}, &["not a regular file"]);
        }),
        ("trial refuses a planted .evodb-trial.bak symlink", || {
            trial_with_planted("target.py.evodb-trial.bak", link_to_victim, true);
        }),
        ("trial refuses a .evodb-trial.bak FIFO", || {
            trial_with_planted("target.py.evodb-trial.bak", fifo, true);
        }),
        ("trial refuses a .evodb-trial.bak directory", || {
            trial_with_planted("target.py.evodb-trial.bak", directory, true);
        }),
        ("trial never writes through a planted .evodb-trial.tmp symlink", || {
            trial_with_planted("target.py.evodb-trial.tmp", link_to_victim, false);
        }),
        ("trial refuses a planted .evodb-trial.lock symlink", || {
            trial_with_planted("target.py.evodb-trial.lock", link_to_missing, true);
        }),
        ("trial refuses a .evodb-trial.lock FIFO", || {
            trial_with_planted("target.py.evodb-trial.lock", fifo, true);
        }),
        ("trial of a git-ignored target names --inPlace", trial_of_an_ignored_target),
        ("trial in a repository git refuses names --inPlace", trial_in_a_repository_git_refuses),
        ("add --id X --parentId X is refused", || refused_add(false)),
        ("a parent added after its child is refused", || refused_add(true)),
        ("skill install checks every path before writing", || {
            install_through_symlinked_subdir(&["skill", "install"], "references");
        }),
        ("a writer on a dangling-symlink database path says so", || dangling_symlink_database_path(true)),
        ("a reader on a dangling-symlink database path says so", || dangling_symlink_database_path(false)),
        ("a 1 GB address-space limit is named, not called a bug", under_a_small_address_space_limit),
        ("strategy init checks every path before writing", || {
            install_through_symlinked_subdir(&["strategy", "init"], "prompts");
        }),
    ];
    cases.extend(fixed.into_iter().map(|(name, body)| Case::new(name, body)));
    cli::catalogue::run("hostile git/apply/trial/engine", cases, 78);
}
