//! `evodb git-tidy`: the best's commit tagged `best-gen-N`, and the branches of programs gone
//! deleted (evo-anything's clean-up after a run in git mode).

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::ArgMatches;
use evodb_host::bridge as output;
use evodb_trial::git::{git, repository_of};
use serde_json::json;

use crate::context::Context;
use crate::failure::Failure;
use crate::git_mode::stored_commit;
use crate::matches::required;
use crate::reply::Reply;
use crate::session::Engine;

/// `evodb git-tidy`'s arguments.
#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
    pub prefix: String,
    pub dry_run: bool,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath"), prefix: required(m, "prefix"), dry_run: m.get_flag("dryRun") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        tidy(ctx.engine()?, self)
    }
}

fn tidy(engine: &Engine, args: Args) -> Result<Reply, Failure> {
    let cwd = std::env::current_dir().map_err(|e| Failure::Io(format!("cannot read the current directory: {e}")))?;
    let repo = repository_of(&cwd).ok_or_else(|| {
        Failure::Usage(format!("git-tidy works in the run's repository, and `{}` is in none", cwd.display()))
    })?;
    if args.prefix.trim_end_matches('/').is_empty() {
        return Err(Failure::Usage("--prefix is empty; pass the run's branch prefix, e.g. evo/run-1/".into()));
    }
    let database = engine.database_json(&args.db)?;
    let programs = database["programs"].as_object().cloned().unwrap_or_default();

    // 1. best-gen-N on the best's commit.
    let rounds = database["evodb"]["rounds"].as_u64().unwrap_or(0);
    let best_id = database["bestProgramId"].as_str().unwrap_or_default();
    let best_commit = match programs.get(best_id) {
        Some(best) => stored_commit(best, best_id)?,
        None => None,
    };
    let best_commit = best_commit.as_deref();
    let tagged = match (rounds.checked_sub(1), best_commit) {
        (Some(generation), Some(commit)) => {
            let tag = format!("best-gen-{generation}");
            let exists =
                git(&repo, &["rev-parse", "--verify", "--quiet", "--end-of-options", &format!("refs/tags/{tag}")])
                    .is_ok();
            if !exists && !args.dry_run {
                git(&repo, &["tag", "--end-of-options", &tag, commit]).map_err(Failure::Io)?;
            }
            (!exists).then(|| json!({"tag": tag, "commit": commit, "id": best_id}))
        }
        _ => None,
    };

    // 2. Branches under the prefix that nothing live or pending names.
    let mut wanted: Vec<String> = programs.values().filter_map(|p| p["branch"].as_str().map(String::from)).collect();
    for item in database["evodb"]["pending"].as_array().into_iter().flatten() {
        if let Some(name) = item["name"].as_str() {
            wanted.push(format!("{}{name}", args.prefix));
        }
        if let Some(branch) = item["held"]["request"]["branch"].as_str() {
            wanted.push(branch.to_string());
        }
    }
    let pattern = format!("refs/heads/{}", args.prefix);
    let listed = git(&repo, &["for-each-ref", "--format=%(refname:short)", &pattern]).map_err(Failure::Io)?;
    let (mut deleted, mut kept, mut warnings) = (Vec::new(), Vec::new(), Vec::new());
    // git refuses to delete a branch checked out in a worktree: the dry run predicts that too.
    let checked_out = checked_out_branches(&repo)?;
    for branch in listed.lines().filter(|b| b.starts_with(&args.prefix)) {
        if wanted.iter().any(|w| w == branch) {
            kept.push(branch.to_string());
            continue;
        }
        if let Some(worktree) = checked_out.get(branch) {
            warnings.push(format!("kept `{branch}`: it is checked out in the worktree `{worktree}`"));
            kept.push(branch.to_string());
            continue;
        }
        if !args.dry_run
            && let Err(e) = git(&repo, &["branch", "-D", "--quiet", "--end-of-options", branch])
        {
            // Checked out here or in another worktree: git keeps it, and so do we.
            warnings.push(format!("kept `{branch}`: {e}"));
            kept.push(branch.to_string());
            continue;
        }
        deleted.push(branch.to_string());
    }
    let stdout = output::json(&json!({"tagged": tagged, "deleted": deleted, "kept": kept, "dryRun": args.dry_run}));
    Ok(Reply { stdout, warnings, failure: None })
}

/// Branch (short name) → the worktree that has it checked out, from `git worktree list
/// --porcelain` (the main worktree included).
fn checked_out_branches(repo: &std::path::Path) -> Result<BTreeMap<String, String>, Failure> {
    let listed = git(repo, &["worktree", "list", "--porcelain"]).map_err(Failure::Io)?;
    let mut branches = BTreeMap::new();
    let mut worktree = "";
    for line in listed.lines() {
        if let Some(path) = line.strip_prefix("worktree ") {
            worktree = path;
        } else if let Some(branch) = line.strip_prefix("branch refs/heads/") {
            branches.insert(branch.to_string(), worktree.to_string());
        }
    }
    Ok(branches)
}
