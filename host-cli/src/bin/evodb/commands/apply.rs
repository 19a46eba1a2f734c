//! `evodb apply`: a stored program into the user's working tree as one git commit, only after
//! its tests pass with it in place. The tests run in a worktree (`evodb trial --worktree`), so a
//! failing program never touches the user's files.

use std::fs;
use std::path::{Path, PathBuf};

use evodb_safe_files::replace_file;

use evodb_core::{FilePlacement, Placed, place_in_target};
use evodb_host::Access;
use evodb_host::bridge as output;
use evodb_trial::{self as trial, Candidate, Isolation, Spec, git};
use serde_json::{Value, json};

use clap::ArgMatches;

use crate::context::Context;
use crate::failure::Failure;
use crate::input::timeout_of;
use crate::matches::{optional, required};
use crate::reply::Reply;
use crate::session::Engine;

/// `evodb apply`'s arguments (their help is in the command-line table, `evodb_cli_spec`).
#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
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

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            db: required(m, "dbPath"),
            id: optional(m, "id"),
            target: required(m, "target"),
            test: required(m, "test"),
            setup: optional(m, "setup"),
            timeout_sec: required(m, "timeoutSec"),
            message: optional(m, "message"),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        apply(ctx.engine()?, self)
    }
}

fn apply(engine: &Engine, args: Args) -> Result<Reply, Failure> {
    let timeout = timeout_of(args.timeout_sec)?;
    let (repo, target) = target_in_repository(&args.target)?;
    // Read once: the program to apply and the run's other programs, for placing its code.
    let database = engine.database_json(&args.db)?;
    let chosen = choose(engine, &args.db, args.id.as_deref(), &database)?;
    if git::has_changes(&repo, &target).map_err(Failure::Io)? {
        return Err(Failure::BadInput(format!(
            "--target `{}` has uncommitted changes, which the commit would mix in; commit or stash them first",
            target.display()
        )));
    }
    let original = fs::read(&target).map_err(|e| Failure::Io(format!("cannot read `{}`: {e}", target.display())))?;
    let answer = |applied: bool, commit: Option<&str>, trial: Option<&Value>, placed: Option<&Placed>| {
        let (placement, replaced) = match placed.map(|placed| &placed.placement) {
            Some(FilePlacement::WholeFile { replaced }) => (Some("wholeFile"), Some(replaced)),
            Some(FilePlacement::Definition { replaced }) => (Some("definition"), Some(replaced)),
            None => (None, None),
        };
        json!({"applied": applied, "id": chosen.id, "target": target.display().to_string(), "placement": placement, "replaced": replaced, "commit": commit, "trial": trial})
    };
    let file = String::from_utf8(original.clone()).map_err(|_| {
        Failure::BadInput(format!(
            "--target `{}` is not UTF-8 text, and programs are; pass the evolved file",
            target.display()
        ))
    })?;
    let nearest_first = nearest_first(&database["programs"], &chosen.id);
    let placed = place_in_target(&file, &chosen.code, &nearest_first).map_err(|why| {
        Failure::BadInput(format!(
            "cannot tell where program `{}` goes in `{}`: {why}. apply writes a program over a file that is one of \
             the run's programs, or in place of the one program's definition it finds in it; copy the code from \
             `evodb best` by hand",
            chosen.id,
            target.display()
        ))
    })?;
    let Some(placed) = placed else {
        let warning = format!("`{}` already holds program `{}`; nothing to commit", target.display(), chosen.id);
        return Ok(Reply::json(&answer(false, None, None, None)).warned(vec![warning]));
    };

    trial::install_interrupt_handler().map_err(|e| Failure::Internal(e.message))?;
    let spec = Spec {
        target: target.clone(),
        candidate: Candidate::Code(placed.contents.clone().into_bytes()),
        test: Some(args.test),
        bench: None,
        score_key: "score".into(),
        timeout,
        judge: None,
        cwd: None,
        setup: args.setup,
        isolation: Isolation::Worktree,
        repeat: 1,
    };
    let report = match trial::run(&spec, &mut |note| eprintln!("{note}")) {
        Ok(report) => report,
        Err(err) => return Ok(Reply::from(err)),
    };
    if report["passed"] != true {
        let tests = &report["tests"];
        let how = match (tests["timedOut"].as_bool(), tests["exitCode"].as_i64()) {
            (Some(true), _) => "timed out".to_string(),
            (_, Some(code)) => format!("exit code {code}"),
            _ => "killed".to_string(),
        };
        let failure = Failure::BadInput(format!(
            "the tests fail with program `{}` in place ({how}; see trial.tests.output); nothing was changed",
            chosen.id
        ));
        return Ok(Reply::failed(output::json(&answer(false, None, Some(&report), Some(&placed))), failure));
    }

    write_keeping_mode(&target, placed.contents.as_bytes())?;
    let message = args.message.unwrap_or_else(|| {
        format!("evodb: apply program {}\n\nmetrics: {}\nchanges: {}\n", chosen.id, chosen.metrics, chosen.changes)
    });
    match git::commit_only(&repo, &target, &message) {
        Ok(commit) => Ok(Reply::json(&answer(true, Some(&commit), Some(&report), Some(&placed)))),
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

/// The best program, or the live program with `id` (from `database`, the run's export).
fn choose(engine: &Engine, db: &Path, id: Option<&str>, database: &Value) -> Result<Chosen, Failure> {
    let Some(id) = id else {
        let best = engine
            .open(db, Access::Read)?
            .best(None)?
            .ok_or_else(|| Failure::NotFound("the database holds no program yet; nothing to apply".into()))?;
        return Ok(Chosen {
            id: best.id.to_string(),
            code: best.target_code.to_string(),
            metrics: json!(best.metrics),
            changes: best.changes.to_string(),
        });
    };
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

/// The run's programs as (id, code): `id`'s ancestors nearest first (itself included), then
/// every other program, for `place_in_target`.
fn nearest_first<'a>(programs: &'a Value, id: &str) -> Vec<(&'a str, &'a str)> {
    let Some(all) = programs.as_object() else { return Vec::new() };
    let code = |program: &'a Value| program["targetCode"].as_str().unwrap_or_default();
    let mut ordered: Vec<(&'a str, &'a str)> = Vec::new();
    let mut at = all.get_key_value(id);
    while let Some((key, program)) = at {
        if ordered.iter().any(|(seen, _)| *seen == key.as_str()) {
            break;
        }
        ordered.push((key.as_str(), code(program)));
        at = program["parentId"].as_str().and_then(|parent| all.get_key_value(parent));
    }
    for (key, program) in all {
        if !ordered.iter().any(|(seen, _)| *seen == key.as_str()) {
            ordered.push((key.as_str(), code(program)));
        }
    }
    ordered
}

/// Replaces `path` whole (a temporary sibling created new, renamed over it), keeping its
/// permissions; never writes through a symlink planted beside it.
fn write_keeping_mode(path: &Path, contents: &[u8]) -> Result<(), Failure> {
    let failed = |e: std::io::Error| Failure::Io(format!("cannot write `{}`: {e}", path.display()));
    let permissions = fs::metadata(path).map_err(failed)?.permissions();
    replace_file(path, contents, Some(permissions)).map_err(failed)
}
