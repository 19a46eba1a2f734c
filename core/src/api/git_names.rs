//! What a stored `commit` and `branch` may be. Git mode hands both to `git` on the machine of
//! whoever runs the next command, and a run can be written by others (a shared PostgreSQL run, a
//! directory passed around, an imported file): a commit `--output=/home/u/x` or a branch
//! `-D` would become an option. So the same rule holds wherever they enter — `add`, a load,
//! `validate`, an import — and the host still puts `--end-of-options` before them.

/// The longest branch name kept (git's own limit is the file system's, 255 bytes a component).
pub const MAX_BRANCH_BYTES: usize = 255;

/// Why `commit` is not a git object name (4 to 64 hex digits: SHA-1 or SHA-256, abbreviated or
/// not); `None` when it is one.
///
/// ```
/// assert!(evodb_core::commit_problem("9fceb02").is_none());
/// assert!(evodb_core::commit_problem("--output=/tmp/x").is_some());
/// ```
pub fn commit_problem(commit: &str) -> Option<String> {
    let hex = (4..=64).contains(&commit.len()) && commit.bytes().all(|b| b.is_ascii_hexdigit());
    (!hex).then(|| format!("is `{}`, not a git commit hash (4 to 64 hex digits)", shown(commit)))
}

/// Why `branch` is not a branch name git would accept (`git check-ref-format --branch`'s rules,
/// and never an option: no leading `-`); `None` when it is one.
///
/// ```
/// assert!(evodb_core::branch_problem("evo/run-1/gen-2-c3").is_none());
/// assert!(evodb_core::branch_problem("-D").is_some());
/// assert!(evodb_core::branch_problem("a..b").is_some());
/// ```
pub fn branch_problem(branch: &str) -> Option<String> {
    let why = if branch.trim().is_empty() {
        "is empty"
    } else if branch.len() > MAX_BRANCH_BYTES {
        "is over 255 bytes"
    } else if branch.starts_with('-') {
        "starts with `-` (git would read it as an option)"
    } else if branch.bytes().any(|b| b.is_ascii_control() || b" ~^:?*[\\".contains(&b)) {
        "holds a space, a control character or one of ~ ^ : ? * [ \\"
    } else if branch.contains("..") || branch.contains("@{") || branch.contains("//") || branch == "@" {
        "holds `..`, `@{` or `//`, or is `@`"
    } else if branch.starts_with('/') || branch.ends_with('/') || branch.ends_with('.') {
        "starts or ends with `/`, or ends with `.`"
    } else if branch.split('/').any(|part| part.starts_with('.') || part.ends_with(".lock")) {
        "has a part that starts with `.` or ends with `.lock`"
    } else {
        return None;
    };
    Some(format!("is `{}`, which {why}; pass a git branch name such as evo/run-1/c3", shown(branch)))
}

/// The value as a message may quote it: at most 80 characters, control characters escaped.
fn shown(text: &str) -> String {
    let mut out: String = text.chars().take(80).flat_map(char::escape_default).collect();
    if text.chars().count() > 80 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_shaped_values_are_refused() {
        for commit in ["--output=/tmp/victim", "-p", "HEAD", "abc", "g123456", &"a".repeat(65), ""] {
            assert!(commit_problem(commit).is_some(), "{commit}");
        }
        for commit in ["abcd", "9fceb02d0ae598e95dc970b74767f19372d61af8", &"0".repeat(64)] {
            assert!(commit_problem(commit).is_none(), "{commit}");
        }
        for branch in [
            "-D",
            "--file=/etc/passwd",
            "a b",
            "a..b",
            "a@{1}",
            "a//b",
            "/a",
            "a/",
            "a.",
            "a/.b",
            "a.lock",
            "x/y.lock/z",
            "@",
            "a\nb",
            "a:b",
            "",
            " ",
        ] {
            assert!(branch_problem(branch).is_some(), "{branch:?}");
        }
        for branch in ["main", "evo/run-1/gen-2-c3", "feature_x", "a-b", "v1.2", "gen-1/cand-2"] {
            assert!(branch_problem(branch).is_none(), "{branch}");
        }
    }

    #[test]
    fn messages_quote_a_bounded_escaped_value() {
        let long = format!("--{}", "x".repeat(500));
        let message = commit_problem(&long).unwrap();
        assert!(message.len() < 200, "{message}");
        assert!(branch_problem("a\nb").unwrap().contains("a\\nb"));
    }
}
