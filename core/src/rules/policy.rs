//! `policy_check` (evo-anything's PolicyAgent rules that need no judgement): a candidate may change
//! only its declared target file, and never a protected one (benchmarks, evaluators, scripts).

use crate::api::PolicyVerdict;

/// evo-anything's protected patterns.
pub const DEFAULT_PROTECTED: [&str; 3] = ["benchmark*.py", "eval*.py", "*.sh"];

/// Checks a candidate's changed files against its target file and the protected patterns
/// (`None` → [`DEFAULT_PROTECTED`]). A pattern without `/` matches the file name in any
/// directory; one with `/` matches the whole path. `*` matches within a path segment, `?` one
/// character. Paths compare after dropping a leading `./`.
///
/// ```
/// use evodb_core::policy_check;
/// assert!(policy_check(&["src/model.py"], "src/model.py", None).pass);
/// let verdict = policy_check(&["src/model.py", "benchmark.py"], "src/model.py", None);
/// assert_eq!(verdict.reason.as_deref(), Some("Protected file modified: 'benchmark.py'"));
/// ```
pub fn policy_check(changed_files: &[&str], target_file: &str, protected: Option<&[&str]>) -> PolicyVerdict {
    let protected = protected.unwrap_or(&DEFAULT_PROTECTED);
    let fail = |reason: String| PolicyVerdict { pass: false, reason: Some(reason) };
    if changed_files.is_empty() {
        return fail("No files changed: the candidate is identical to its parent".into());
    }
    let target = clean(target_file);
    for file in changed_files.iter().map(|f| clean(f)) {
        // Worded exactly as evo-anything's PolicyAgent words it.
        if protected.iter().any(|p| matches_path(p, file)) {
            return fail(format!("Protected file modified: '{file}'"));
        }
    }
    if let Some(file) = changed_files.iter().map(|f| clean(f)).find(|&f| f != target) {
        return fail(format!("File outside the target modified: '{file}' (the target is '{target}')"));
    }
    PolicyVerdict { pass: true, reason: None }
}

fn clean(path: &str) -> &str {
    path.strip_prefix("./").unwrap_or(path)
}

fn matches_path(pattern: &str, path: &str) -> bool {
    if pattern.contains('/') {
        glob(pattern.as_bytes(), path.as_bytes())
    } else {
        glob(pattern.as_bytes(), path.rsplit('/').next().unwrap_or(path).as_bytes())
    }
}

/// `*` (any run of characters but `/`) and `?` (one character but `/`), by backtracking over
/// the last `*` — linear for the patterns policies use.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if (c == b'?' && text[t] != b'/') || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) if text[st] != b'/' => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                _ => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_names_and_paths() {
        for (pattern, path, expected) in [
            ("benchmark*.py", "benchmark.py", true),
            ("benchmark*.py", "bench/benchmark_fast.py", true),
            ("benchmark*.py", "my_benchmark.py", false),
            ("eval*.py", "evaluate.py", true),
            ("*.sh", "scripts/run.sh", true),
            ("*.sh", "run.shx", false),
            ("scripts/*.py", "scripts/a.py", true),
            ("scripts/*.py", "scripts/x/a.py", false),
            ("a?c", "abc", true),
        ] {
            assert_eq!(matches_path(pattern, path), expected, "{pattern} vs {path}");
        }
    }

    #[test]
    fn each_failure_names_its_file() {
        let outside = policy_check(&["model.py", "./utils.py"], "./model.py", None);
        assert_eq!(
            outside.reason.as_deref(),
            Some("File outside the target modified: 'utils.py' (the target is 'model.py')")
        );
        assert!(!policy_check(&[], "model.py", None).pass);
        let custom = policy_check(&["model.py", "data.csv"], "model.py", Some(&["*.csv"]));
        assert_eq!(custom.reason.as_deref(), Some("Protected file modified: 'data.csv'"));
        assert!(policy_check(&["run.sh"], "run.sh", Some(&[])).pass);
    }
}
