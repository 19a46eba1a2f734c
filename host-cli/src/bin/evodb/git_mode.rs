//! `evodb add` in git mode (evo-anything's branch per candidate): the candidate is a commit of
//! the current directory's repository. The commit (and branch) are kept with the program, the
//! code can be read from the commit, and the commit's diff against its parent program's commit
//! passes the policy check (`policy_check`) or the candidate is recorded as an `error` with the
//! policy's reason. Not `rejected`: a rejected candidate keeps its fitness and may become the
//! best or a parent (the AlphaEvolve strategy's memory), and a candidate that edited the
//! benchmark has a fitness nobody should trust. An error joins no island.

use std::path::{Path, PathBuf};

use clap::ArgMatches;
use evodb_core::{AddRequest, Status, policy_check};
use evodb_trial::git::{git, repository_of};
use serde_json::Value;

use crate::failure::Failure;
use crate::matches::optional;
use crate::session::Engine;

/// `add`'s git-mode flags.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct GitArgs {
    pub branch: Option<String>,
    pub commit: Option<String>,
    pub target: Option<PathBuf>,
    pub protected: Option<String>,
}

/// The candidate's commit, resolved.
pub struct GitCandidate {
    repo: PathBuf,
    branch: Option<String>,
    commit: String,
    /// The target's path in the repository, and its code in the commit.
    target: Option<(String, String)>,
    protected: Option<Vec<String>>,
}

impl GitArgs {
    pub fn from_matches(m: &ArgMatches) -> GitArgs {
        GitArgs {
            branch: optional(m, "branch"),
            commit: optional(m, "commit"),
            target: optional(m, "target"),
            protected: optional(m, "protected"),
        }
    }

    /// Whether any git-mode flag was given.
    pub fn is_on(&self) -> bool {
        !self.is_empty()
    }

    fn is_empty(&self) -> bool {
        self.branch.is_none() && self.commit.is_none() && self.target.is_none() && self.protected.is_none()
    }
}

/// Resolves the git flags in the current directory's repository; `None` without them.
pub fn resolve(args: GitArgs) -> Result<Option<GitCandidate>, Failure> {
    if args.is_empty() {
        return Ok(None);
    }
    let Some(rev) = args.branch.as_deref().or(args.commit.as_deref()) else {
        return Err(Failure::Usage(
            "--target and --protected are git mode's: pass --branch or --commit with them".into(),
        ));
    };
    if let Some(why) = args.branch.as_deref().and_then(evodb_core::branch_problem) {
        return Err(Failure::Usage(format!("--branch {why}")));
    }
    let cwd = std::env::current_dir().map_err(|e| Failure::Io(format!("cannot read the current directory: {e}")))?;
    let repo = repository_of(&cwd).ok_or_else(|| {
        Failure::Usage(format!(
            "git mode (--branch, --commit) reads the candidate from the repository of the current directory, and `{}` \
             is in none; run evodb add there",
            cwd.display()
        ))
    })?;
    let commit_of = |rev: &str| {
        git(&cwd, &["rev-parse", "--verify", "--quiet", "--end-of-options", &format!("{rev}^{{commit}}")])
            .map(|hash| hash.trim().to_string())
            .map_err(|_| {
                Failure::NotFound(format!(
                    "`{rev}` names no commit in `{}`; check the branch or commit",
                    repo.display()
                ))
            })
    };
    let commit = commit_of(rev)?;
    if let (Some(branch), Some(given)) = (&args.branch, &args.commit)
        && commit_of(given)? != commit
    {
        return Err(Failure::BadInput(format!(
            "--commit {given} is not the commit of --branch {branch} ({commit}); pass one of them, or the branch's commit"
        )));
    }
    let target = match &args.target {
        None => None,
        Some(path) => {
            let path = path.to_string_lossy();
            let listed =
                git(&cwd, &["ls-tree", "--full-name", "--name-only", &commit, "--", &path]).map_err(Failure::Io)?;
            let rel = listed.lines().next().filter(|l| !l.is_empty()).ok_or_else(|| {
                Failure::NotFound(format!("--target `{path}` is not a file of commit {commit}; pass the evolved file"))
            })?;
            let code = git(&repo, &["show", "--end-of-options", &format!("{commit}:{rel}")]).map_err(Failure::Io)?;
            Some((rel.to_string(), code))
        }
    };
    let protected = args
        .protected
        .map(|globs| globs.split(',').map(str::trim).filter(|g| !g.is_empty()).map(String::from).collect());
    Ok(Some(GitCandidate { repo, branch: args.branch, commit, target, protected }))
}

impl GitCandidate {
    /// The code and path the request lacks: the target's code in the commit, and
    /// `<branch or commit>:<target>` as its path.
    pub fn fill_code(&self, code_path: &mut Option<String>, target_code: &mut Option<String>, has_file: bool) {
        if let Some((rel, code)) = &self.target {
            if target_code.is_none() && !has_file {
                *target_code = Some(code.clone());
            }
            if code_path.is_none() {
                *code_path = Some(format!("{}:{rel}", self.branch.as_deref().unwrap_or(&self.commit)));
            }
        }
    }

    /// Records branch and commit in the request, and with `--target` the policy check of the
    /// commit's diff against its parent program's commit (else its own parent): a failure makes
    /// the candidate an `error` with the policy's reason. Returns the warning to print, if any.
    pub fn apply(&self, engine: &Engine, db: &Path, request: &mut AddRequest) -> Result<Option<String>, Failure> {
        request.branch.clone_from(&self.branch);
        request.commit = Some(self.commit.clone());
        let Some((rel, _)) = &self.target else { return Ok(None) };
        let parent = request.parent_id.clone();
        if parent == evodb_core::ROOT_PARENT_ID {
            // The initial program is no mutation: there is no parent to diff against.
            return Ok(None);
        }
        let base = match parent_commit(engine, db, &parent)? {
            Some(commit) => commit,
            None => match git(
                &self.repo,
                &["rev-parse", "--verify", "--quiet", "--end-of-options", &format!("{}^", self.commit)],
            ) {
                Ok(first_parent) => first_parent.trim().to_string(),
                // A root commit: every file it holds is a change.
                Err(_) => git(&self.repo, &["hash-object", "-t", "tree", "/dev/null"])
                    .map_err(Failure::Io)?
                    .trim()
                    .to_string(),
            },
        };
        let changed =
            git(&self.repo, &["diff", "--name-only", "--no-renames", "--end-of-options", &base, &self.commit, "--"])
                .map_err(Failure::Io)?;
        let changed: Vec<&str> = changed.lines().filter(|l| !l.is_empty()).collect();
        let protected: Option<Vec<&str>> = self.protected.as_ref().map(|p| p.iter().map(String::as_str).collect());
        let verdict = policy_check(&changed, rel, protected.as_deref());
        match verdict.reason {
            Some(reason) if !verdict.pass && request.status != Status::Error => {
                let reason = format!("policy: {reason}");
                let warning = format!(
                    "{reason} in commit {}; recorded as an error (it joins no island, its metrics are not trusted)",
                    self.commit
                );
                request.status = Status::Error;
                request.reason = Some(reason);
                Ok(Some(warning))
            }
            _ => Ok(None),
        }
    }
}

/// The commit recorded with the live program `parent`, if any.
fn parent_commit(engine: &Engine, db: &Path, parent: &str) -> Result<Option<String>, Failure> {
    if parent.is_empty() {
        return Ok(None);
    }
    let database = engine.database_json(db)?;
    stored_commit(&database["programs"][parent], parent)
}

/// A program's stored `commit`, checked again before it reaches git: a load already refuses an
/// option-shaped one, and this keeps git safe from a file written by an older evodb.
pub fn stored_commit(program: &Value, id: &str) -> Result<Option<String>, Failure> {
    let Some(commit) = program["commit"].as_str() else { return Ok(None) };
    match evodb_core::commit_problem(commit) {
        None => Ok(Some(commit.to_string())),
        Some(why) => Err(Failure::BadInput(format!(
            "program `{id}`'s stored commit {why}; the run was written by something other than evodb add: check it \
             with evodb validate"
        ))),
    }
}
