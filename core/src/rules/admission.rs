//! `admit`: a check before evaluation, so a fleet does not pay to evaluate what the population
//! already holds. A candidate's code is compared with every live program's: `duplicate` when
//! they are equal once comments and whitespace are normalised (`normalised_code`, by the
//! language family of the file's extension), `near-duplicate` when their token shingles are
//! alike beyond `nearDuplicate` in the config (`similarity`, estimated by MinHash), else
//! `evaluate`. It reads only: nothing is counted against the budget, nothing is recorded.
//! A caller with its own embeddings compares those instead (`rules/embedding.rs`).

use crate::api::{Admission, AdmissionVerdict};
use crate::database::Database;

/// The similarity from which a candidate is a near-duplicate when the config names none.
pub const DEFAULT_NEAR_DUPLICATE: f64 = 0.9;

/// MinHash signature length: the similarity is a multiple of 1/64.
pub(super) const SIGNATURE: usize = 64;
/// Tokens per shingle.
const SHINGLE: usize = 3;

impl Database {
    /// `admit`: the verdict on `code` (its file `code_path`, whose extension names the language
    /// family; empty when unknown) against the live programs, with the closest one.
    ///
    /// ```
    /// use evodb_core::{AddRequest, AdmissionVerdict, Config, Database, Metrics};
    /// let mut db = Database::new(Config::default(), 1).unwrap();
    /// let code = "def f(x):\n    return x + 1  # add one\n";
    /// db.add(AddRequest::seed("/f.py", code, Metrics::new([("s", 0.5)]).unwrap()), 1.0).unwrap();
    /// let same = db.admit("def f(x):\n    return x + 1\n\n", "/g.py");
    /// assert_eq!(same.verdict, AdmissionVerdict::Duplicate);
    /// let other = db.admit("def g(items):\n    return sorted(set(items))\n", "/g.py");
    /// assert_eq!(other.verdict, AdmissionVerdict::Evaluate);
    /// ```
    pub fn admit(&self, code: &str, code_path: &str) -> Admission {
        let family = Family::of(code_path);
        let normalised = normalised_code(code, family);
        let signature = minhash(&normalised);
        let threshold = self.config.near_duplicate.unwrap_or(DEFAULT_NEAR_DUPLICATE);
        let mut closest: Option<(f64, &str)> = None;
        for program in self.programs() {
            let theirs = normalised_code(&program.target_code, Family::of(&program.code_path).or(family));
            if theirs == normalised {
                return Admission {
                    verdict: AdmissionVerdict::Duplicate,
                    of: Some(program.id.to_string()),
                    similarity: 1.0,
                };
            }
            let similarity = similarity(&signature, &minhash(&theirs));
            if closest.is_none_or(|(best, _)| similarity > best) {
                closest = Some((similarity, &program.id));
            }
        }
        closest_verdict(closest, threshold)
    }
}

/// The verdict on the closest program found (its similarity and id): a near-duplicate at or above
/// `threshold`, else evaluate; evaluate with no `of` when nothing was compared.
pub(crate) fn closest_verdict(closest: Option<(f64, &str)>, threshold: f64) -> Admission {
    match closest {
        None => Admission { verdict: AdmissionVerdict::Evaluate, of: None, similarity: 0.0 },
        Some((similarity, id)) => Admission {
            verdict: match similarity >= threshold {
                true => AdmissionVerdict::NearDuplicate,
                false => AdmissionVerdict::Evaluate,
            },
            of: Some(id.to_string()),
            similarity,
        },
    }
}

impl Database {
    /// The live program whose code equals `code` once normalised (`admit`'s `duplicate`).
    pub(super) fn duplicate_of(&self, code: &str, code_path: &str) -> Option<&str> {
        let family = Family::of(code_path);
        let normalised = normalised_code(code, family);
        self.programs()
            .find(|program| {
                normalised_code(&program.target_code, Family::of(&program.code_path).or(family)) == normalised
            })
            .map(|program| &*program.id)
    }
}

/// How comments are written: by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Family {
    /// `# …` to the end of the line (Python, shell, Ruby, R, Julia, YAML, TOML).
    Hash,
    /// `// …` and `/* … */` (C, C++, Rust, Go, Java, JavaScript, TypeScript, C#, Swift, Kotlin).
    Slash,
    /// `-- …` (SQL, Haskell, Lua).
    DoubleDash,
}

impl Family {
    pub(super) fn of(code_path: &str) -> Option<Family> {
        let extension = code_path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase())?;
        match extension.as_str() {
            "py" | "pyi" | "sh" | "bash" | "rb" | "r" | "jl" | "pl" | "yaml" | "yml" | "toml" => Some(Family::Hash),
            "c" | "h" | "cc" | "cpp" | "hpp" | "cxx" | "cu" | "rs" | "go" | "java" | "js" | "mjs" | "cjs" | "ts"
            | "tsx" | "jsx" | "cs" | "swift" | "kt" | "scala" | "dart" | "zig" | "glsl" | "wgsl" => Some(Family::Slash),
            "sql" | "hs" | "lua" => Some(Family::DoubleDash),
            _ => None,
        }
    }
}

/// `code` without comments (for a known family; string literals are not parsed, so a comment
/// marker inside a string ends the line there, the same way for both sides of a comparison),
/// trailing whitespace, blank lines, or runs of blanks inside a line. Leading indentation is
/// kept (tabs as four spaces): in Python it is the code's structure.
pub(super) fn normalised_code(code: &str, family: Option<Family>) -> String {
    let mut text = code.replace("\r\n", "\n").replace('\t', "    ");
    if family == Some(Family::Slash) {
        text = without_block_comments(&text);
    }
    let marker = match family {
        Some(Family::Hash) => Some("#"),
        Some(Family::Slash) => Some("//"),
        Some(Family::DoubleDash) => Some("--"),
        None => None,
    };
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let line = match marker.and_then(|m| line.find(m)) {
            Some(at) => &line[..at],
            None => line,
        };
        let body = line.trim();
        if body.is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        out.extend(std::iter::repeat_n(' ', indent));
        out.push_str(&body.split_whitespace().collect::<Vec<_>>().join(" "));
        out.push('\n');
    }
    out
}

fn without_block_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        match rest[start + 2..].find("*/") {
            Some(end) => rest = &rest[start + 2 + end + 2..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// Identifiers and numbers as one token each, every other visible character as its own.
fn tokens(code: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (i, c) in code.char_indices() {
        let word = c.is_alphanumeric() || c == '_';
        match (word, start) {
            (true, None) => start = Some(i),
            (true, Some(_)) => {}
            (false, Some(s)) => {
                tokens.push(&code[s..i]);
                start = None;
            }
            (false, None) => {}
        }
        if !word && !c.is_whitespace() {
            tokens.push(&code[i..i + c.len_utf8()]);
        }
    }
    if let Some(s) = start {
        tokens.push(&code[s..]);
    }
    tokens
}

/// The MinHash signature of the code's token shingles: per slot, the least of the shingles'
/// hashes under that slot's mixing (splitmix64 of the shingle's FNV-1a hash and the slot).
pub(super) fn minhash(code: &str) -> [u64; SIGNATURE] {
    let tokens = tokens(code);
    let mut signature = [u64::MAX; SIGNATURE];
    let width = SHINGLE.min(tokens.len().max(1));
    for shingle in tokens.windows(width) {
        let hash = fnv1a(shingle);
        for (slot, least) in signature.iter_mut().enumerate() {
            *least = (*least).min(splitmix64(hash ^ (slot as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)));
        }
    }
    signature
}

/// The share of slots two signatures agree on: an estimate of their shingle sets' Jaccard index.
pub(super) fn similarity(a: &[u64; SIGNATURE], b: &[u64; SIGNATURE]) -> f64 {
    a.iter().zip(b).filter(|(x, y)| x == y).count() as f64 / SIGNATURE as f64
}

fn fnv1a(tokens: &[&str]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for token in tokens {
        for byte in token.bytes().chain([0x1f]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

pub(super) fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_blanks_do_not_count_but_indentation_does() {
        let py = Some(Family::Hash);
        assert_eq!(
            normalised_code("def f():  # doc\n\n    return  1\n", py),
            normalised_code("def f():\n    return 1   \n", py)
        );
        assert_ne!(normalised_code("if a:\n    b\nc\n", py), normalised_code("if a:\n    b\n    c\n", py));
        let c = Some(Family::Slash);
        assert_eq!(
            normalised_code("int f() { /* x */ return 1; } // y\n", c),
            normalised_code("int f() { return 1; }\n", c)
        );
        // Python's `//` is an operator, not a comment.
        assert_ne!(normalised_code("x = a // b\n", py), normalised_code("x = a\n", py));
    }

    #[test]
    fn similarity_grows_with_shared_shingles() {
        let base = "def f(items):\n    total = 0\n    for x in items:\n        total += x * x\n    return total\n";
        let edited =
            "def f(items):\n    total = 0\n    for x in items:\n        total += x * x * 2\n    return total\n";
        let other = "class Cache:\n    def __init__(self):\n        self.store = {}\n";
        let near = similarity(&minhash(base), &minhash(edited));
        let far = similarity(&minhash(base), &minhash(other));
        assert!(near > 0.6 && far < 0.2, "near {near}, far {far}");
        assert_eq!(similarity(&minhash(base), &minhash(base)), 1.0);
    }
}
