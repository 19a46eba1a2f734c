//! `evodb apply`: a stored program into the user's working tree as one git commit, only after
//! its tests pass with it in place. The tests run in a worktree (`evodb trial --worktree`), so a
//! failing program never touches the user's files.

use std::fs;
use std::path::{Path, PathBuf};

use evodb_host::replace::replace_file;

use evodb_core::BestProgram;
use evodb_host::Access;
use evodb_host::trial::{self, Candidate, Isolation, Spec, git};
use evodb_host::views::{self as output, core};
use serde_json::{Value, json};

use crate::args::DbArg;
use crate::commands::{Printed, database_json};
use crate::failure::Failure;
use crate::session::{Runtime, ok};
use crate::trial::{failure_of, timeout_of};

/// `evodb apply`'s arguments (their help is in the command-line table, `evodb_cli_spec`).
#[derive(Debug)]
pub struct ApplyArgs {
    pub db: DbArg,
    pub id: Option<String>,
    pub target: PathBuf,
    pub test: String,
    pub setup: Option<String>,
    pub timeout_sec: f64,
    pub message: Option<String>,
}

/// The program to apply.
struct Chosen {
    id: String,
    code: String,
    metrics: Value,
    changes: String,
}

pub fn run(runtime: &Runtime, args: ApplyArgs) -> Result<Printed, Failure> {
    let timeout = timeout_of(args.timeout_sec)?;
    let (repo, target) = target_in_repository(&args.target)?;
    let chosen = choose(runtime, &args.db, args.id.as_deref())?;
    if git::has_changes(&repo, &target).map_err(Failure::Io)? {
        return Err(Failure::BadInput(format!(
            "--target `{}` has uncommitted changes, which the commit would mix in; commit or stash them first",
            target.display()
        )));
    }
    let original = fs::read(&target).map_err(|e| Failure::Io(format!("cannot read `{}`: {e}", target.display())))?;
    let answer = |applied: bool, commit: Option<&str>, trial: Option<&Value>| json!({"applied": applied, "id": chosen.id, "target": target.display().to_string(), "commit": commit, "trial": trial});
    if original == chosen.code.as_bytes() {
        return Ok(Printed {
            stdout: output::json(&answer(false, None, None)),
            warnings: vec![format!("`{}` already holds program `{}`; nothing to commit", target.display(), chosen.id)],
        });
    }

    trial::install_interrupt_handler().map_err(|e| Failure::Internal(e.message))?;
    let spec = Spec {
        target: target.clone(),
        candidate: Candidate::Code(chosen.code.clone().into_bytes()),
        test: Some(args.test),
        bench: None,
        score_key: "score".into(),
        timeout,
        judge: None,
        cwd: None,
        setup: args.setup,
        isolation: Isolation::Worktree,
    };
    let report = trial::run(&spec, &mut |note| eprintln!("{note}")).map_err(failure_of)?;
    if report["passed"] != true {
        println!("{}", output::json(&answer(false, None, Some(&report))));
        let tests = &report["tests"];
        let how = match (tests["timedOut"].as_bool(), tests["exitCode"].as_i64()) {
            (Some(true), _) => "timed out".to_string(),
            (_, Some(code)) => format!("exit code {code}"),
            _ => "killed".to_string(),
        };
        return Err(Failure::BadInput(format!(
            "the tests fail with program `{}` in place ({how}; see trial.tests.output); nothing was changed",
            chosen.id
        )));
    }

    write_keeping_mode(&target, chosen.code.as_bytes())?;
    let message = args.message.unwrap_or_else(|| {
        format!("evodb: apply program {}\n\nmetrics: {}\nchanges: {}\n", chosen.id, chosen.metrics, chosen.changes)
    });
    match git::commit_only(&repo, &target, &message) {
        Ok(commit) => Ok(output::json(&answer(true, Some(&commit), Some(&report))).into()),
        Err(e) => {
            write_keeping_mode(&target, &original)?;
            Err(Failure::Io(format!("cannot commit `{}` (the file is restored): {e}", target.display())))
        }
    }
}

/// The repository and the target (symlinks resolved), which must be a regular file of that
/// repository that git tracks: apply commits it.
fn target_in_repository(given: &Path) -> Result<(PathBuf, PathBuf), Failure> {
    let target = given.canonicalize().map_err(|e| {
        Failure::NotFound(format!("--target `{}` cannot be opened ({e}); pass the file to replace", given.display()))
    })?;
    if !fs::metadata(&target).is_ok_and(|m| m.is_file()) {
        return Err(Failure::Usage(format!(
            "--target `{}` is not a regular file; pass the file to replace",
            given.display()
        )));
    }
    let dir = match given.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let repo = git::repository_of(dir).ok_or_else(|| {
        Failure::Usage(format!(
            "--target `{}` is not in a git repository, and apply commits; copy the code from `evodb best` yourself",
            given.display()
        ))
    })?;
    if !target.starts_with(&repo) {
        return Err(Failure::Usage(format!(
            "--target `{}` leads out of the repository `{}` (to `{}`); pass a file of the repository",
            given.display(),
            repo.display(),
            target.display()
        )));
    }
    if !git::is_tracked(&repo, &target).map_err(Failure::Io)? {
        return Err(Failure::Usage(format!(
            "--target `{}` is not tracked by git (new or ignored), and apply commits a tracked file; commit it first, \
             or try the program with `evodb trial --inPlace`",
            given.display()
        )));
    }
    Ok((repo, target))
}

/// The best program, or the live program with `id`.
fn choose(runtime: &Runtime, db: &DbArg, id: Option<&str>) -> Result<Chosen, Failure> {
    let Some(id) = id else {
        let best = runtime.open(&db.db, Access::Read)?.read(|m, st, db| ok(m.call_best(st, db)))?;
        let best = core::<_, Option<BestProgram>>(best)
            .ok_or_else(|| Failure::NotFound("the database holds no program yet; nothing to apply".into()))?;
        return Ok(Chosen {
            id: best.id.to_string(),
            code: best.target_code.to_string(),
            metrics: json!(best.metrics),
            changes: best.changes.to_string(),
        });
    };
    let database = database_json(runtime, &db.db)?;
    let program = database["programs"].get(id).ok_or_else(|| {
        Failure::NotFound(format!("no live program has id `{id}`; `evodb best` or `evodb export` list the ids"))
    })?;
    Ok(Chosen {
        id: id.to_string(),
        code: program["targetCode"].as_str().unwrap_or_default().to_string(),
        metrics: program["metrics"].clone(),
        changes: program["changes"].as_str().unwrap_or_default().to_string(),
    })
}

/// Replaces `path` whole (a temporary sibling created new, renamed over it), keeping its
/// permissions; never writes through a symlink planted beside it.
fn write_keeping_mode(path: &Path, contents: &[u8]) -> Result<(), Failure> {
    let failed = |e: std::io::Error| Failure::Io(format!("cannot write `{}`: {e}", path.display()));
    let permissions = fs::metadata(path).map_err(failed)?.permissions();
    replace_file(path, contents, Some(permissions)).map_err(failed)
}
