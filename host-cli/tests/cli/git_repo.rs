//! Git repositories made by tests, with their own identity (CI machines have none).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

/// `git -C <dir> <args>`; panics with git's stderr when it fails.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git").arg("-C").arg(dir).args(args).output().expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// A repository in a temp dir, its files given as (path, contents), committed once.
pub struct Repo {
    pub dir: TempDir,
}

impl Repo {
    pub fn with(files: &[(&str, &str)]) -> Repo {
        let repo = Repo { dir: tempfile::tempdir().unwrap() };
        git(repo.root(), &["init", "--quiet"]);
        git(repo.root(), &["config", "user.name", "test"]);
        git(repo.root(), &["config", "user.email", "test@localhost"]);
        for (name, contents) in files {
            repo.write(name, contents);
        }
        git(repo.root(), &["add", "."]);
        git(repo.root(), &["commit", "--quiet", "-m", "initial"]);
        repo
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.root().join(name)
    }

    pub fn write(&self, name: &str, contents: &str) {
        let path = self.path(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }

    pub fn git(&self, args: &[&str]) -> String {
        git(self.root(), args)
    }

    /// `git worktree list` paths besides the repository itself.
    pub fn worktrees(&self) -> Vec<String> {
        self.git(&["worktree", "list", "--porcelain"])
            .lines()
            .filter_map(|l| l.strip_prefix("worktree "))
            .skip(1)
            .map(str::to_string)
            .collect()
    }

    /// What the user sees: every file's bytes (outside .git), and `git status`.
    pub fn state(&self) -> (Vec<(String, Vec<u8>)>, String) {
        fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, Vec<u8>)>) {
            let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
            entries.sort();
            for path in entries {
                let rel = path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                if rel == ".git" {
                    continue;
                }
                if path.is_dir() {
                    walk(&path, root, out);
                } else {
                    out.push((rel, fs::read(&path).unwrap()));
                }
            }
        }
        let mut files = Vec::new();
        walk(self.root(), self.root(), &mut files);
        (files, self.git(&["status", "--porcelain", "--untracked-files=all"]))
    }
}
