//! `admit`: a check before evaluation, so a fleet does not pay to evaluate what the population
//! already holds. A candidate's code is compared with every live program's: `duplicate` when
//! they are equal once comments and whitespace are normalised (`normalised_code`, by the
//! language family of the file's extension), `near-duplicate` when their token shingles are
//! alike beyond `nearDuplicate` in the config (`similarity`, estimated by MinHash), else
//! `evaluate`. It reads only: nothing is counted against the budget, nothing is recorded.
//! A caller with its own embeddings compares those instead (`rules/embedding.rs`).
//!
//! `near_duplicates` asks the same of the population itself: which live programs `admit` would
//! have called a near-duplicate (or a duplicate) of an earlier-added live program, and of which.
//! [`CodeSignatures`] keeps each program's signature, so a page scrubbing a run's timeline
//! compares the population of any moment without signing the same code twice.

use std::collections::HashMap;

use crate::api::{Admission, AdmissionVerdict, NearDuplicate};
use crate::database::Database;

/// The similarity from which a candidate is a near-duplicate when the config names none.
pub const DEFAULT_NEAR_DUPLICATE: f64 = 0.9;

/// MinHash signature length: the similarity is a multiple of 1/64.
const SIGNATURE: usize = 64;
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

impl Database {
    /// `near_duplicates`: each live program whose code is at least the config's `nearDuplicate`
    /// alike (as `admit` measures it; equal normalised code is 1) an earlier-added live program,
    /// with the closest such program (the earliest on a tie), in insertion order. A copy made by
    /// copy-mode migration is not a near-duplicate of its original: it is the same candidate.
    /// Each program's code is signed once, then the signatures are compared pairwise.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics};
    /// let mut db = Database::new(Config::default(), 1).unwrap();
    /// let code = "def f(items):\n    total = 0\n    for x in items:\n        total += x * x\n    return total\n";
    /// for (id, parent, code) in [("a", "0", code), ("b", "a", &code.replace("total = 0", "total = 0  # sum")),
    ///                            ("c", "a", "class Cache:\n    store = {}\n")] {
    ///     let request = AddRequest { id: Some(id.into()), parent_id: parent.into(),
    ///                                ..AddRequest::seed("/f.py", code, Metrics::new([("s", 0.5)]).unwrap()) };
    ///     db.add(request, 1.0).unwrap();
    /// }
    /// let near = db.near_duplicates();
    /// assert_eq!(near.len(), 1);
    /// assert_eq!((near[0].id.as_str(), near[0].of.as_str(), near[0].similarity), ("b", "a", 1.0));
    /// ```
    pub fn near_duplicates(&self) -> Vec<NearDuplicate> {
        let signed: Vec<Signed> = self
            .programs()
            .map(|program| Signed {
                id: &program.id,
                origin: program.migrated_from.as_deref().unwrap_or(&program.id),
                signature: code_signature(&program.target_code, &program.code_path),
            })
            .collect();
        closest_earlier(&signed, self.config.near_duplicate.unwrap_or(DEFAULT_NEAR_DUPLICATE))
    }
}

/// Programs' code signatures, each computed once, for `near_duplicates` among any set of them:
/// the population of one moment of a run, then another's, without signing a program again.
///
/// ```
/// use evodb_core::CodeSignatures;
/// let mut signatures = CodeSignatures::default();
/// signatures.insert("a", "int f(int x) { return x + 1; }", "/f.c", None);
/// signatures.insert("b", "int f(int x) { /* one */ return x + 1; }", "/f.c", None);
/// signatures.insert("c", "int g(int y) { return y * 2 - 7; }", "/f.c", None);
/// let near = signatures.near_duplicates(["a", "b", "c"], None);
/// assert_eq!((near[0].id.as_str(), near[0].of.as_str()), ("b", "a"));
/// assert_eq!(near.len(), 1);
/// assert!(signatures.near_duplicates(["c", "a"], None).is_empty()); // b is not live there
/// ```
#[derive(Clone, Debug, Default)]
pub struct CodeSignatures {
    by_id: HashMap<String, Stored>,
}

#[derive(Clone, Debug)]
struct Stored {
    /// The program a migration copy copies (its own id otherwise).
    origin: String,
    signature: [u64; SIGNATURE],
}

impl CodeSignatures {
    /// Signs program `id`'s code (`code_path`'s extension names its comment syntax); `copy_of`:
    /// the program a copy-mode migration copied it from. Signing an id again replaces it.
    pub fn insert(&mut self, id: &str, code: &str, code_path: &str, copy_of: Option<&str>) {
        let stored = Stored { origin: copy_of.unwrap_or(id).to_string(), signature: code_signature(code, code_path) };
        self.by_id.insert(id.to_string(), stored);
    }

    /// Forgets program `id` (a page that forgets pruned programs forgets their signatures too).
    pub fn remove(&mut self, id: &str) {
        self.by_id.remove(id);
    }

    /// Whether program `id` is signed.
    pub fn contains(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    /// How many programs are signed.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// [`Database::near_duplicates`] among the programs `live` lists, in the order they were
    /// added (ids not signed are left out), at `threshold` (none: the default, 0.9).
    pub fn near_duplicates<'a>(
        &self,
        live: impl IntoIterator<Item = &'a str>,
        threshold: Option<f64>,
    ) -> Vec<NearDuplicate> {
        let signed: Vec<Signed> = live
            .into_iter()
            .filter_map(|id| {
                let (id, stored) = self.by_id.get_key_value(id)?;
                Some(Signed { id, origin: &stored.origin, signature: stored.signature })
            })
            .collect();
        closest_earlier(&signed, threshold.unwrap_or(DEFAULT_NEAR_DUPLICATE))
    }
}

/// A program's signature as the pairwise comparison reads it.
struct Signed<'a> {
    id: &'a str,
    origin: &'a str,
    signature: [u64; SIGNATURE],
}

/// The MinHash signature of `code` once normalised by its file's language family.
fn code_signature(code: &str, code_path: &str) -> [u64; SIGNATURE] {
    minhash(&normalised_code(code, Family::of(code_path)))
}

/// For each program, the closest earlier one at `threshold` or more (the earliest of equally
/// close ones); programs with the same origin (a migration copy and what it copies) are not
/// compared. Exact, but not pairwise: a near pair differs in at most `SIGNATURE - needed` slots,
/// so cut into one band more than that, the two agree on a whole band (locality-sensitive
/// hashing with no misses); only programs sharing a band are compared, and programs with equal
/// signatures are compared once, as a group. Tens of thousands of live programs stay quick.
fn closest_earlier(signed: &[Signed], threshold: f64) -> Vec<NearDuplicate> {
    let Some(needed) = agreeing_needed(threshold) else { return Vec::new() };
    // Programs by signature, in the order given; the first of each is its group's representative.
    let mut groups: HashMap<&[u64; SIGNATURE], Vec<usize>> = HashMap::new();
    // (band, hash of the band's slots) → the representatives holding it.
    let mut buckets: HashMap<(usize, u64), Vec<usize>> = HashMap::new();
    let mut compared_for = vec![usize::MAX; signed.len()];
    let mut found = Vec::new();
    for (i, program) in signed.iter().enumerate() {
        let other_origin = |members: &[usize]| members.iter().copied().find(|&j| signed[j].origin != program.origin);
        let keys = band_keys(&program.signature, needed);
        // An equal signature is as close as can be (1), and the earliest such is the answer.
        let mut closest = groups.get(&program.signature).and_then(|members| other_origin(members)).map(|j| (1.0, j));
        if closest.is_none() {
            for key in &keys {
                for &representative in buckets.get(key).into_iter().flatten() {
                    if std::mem::replace(&mut compared_for[representative], i) == i {
                        continue;
                    }
                    let theirs = &signed[representative].signature;
                    let Some(alike) = similarity_at_least(&program.signature, theirs, threshold) else { continue };
                    let Some(j) = other_origin(&groups[theirs]) else { continue };
                    if closest.is_none_or(|(best, at)| alike > best || (alike == best && j < at)) {
                        closest = Some((alike, j));
                    }
                }
            }
        }
        if let Some((similarity, j)) = closest {
            found.push(NearDuplicate { id: program.id.to_string(), of: signed[j].id.to_string(), similarity });
        }
        match groups.entry(&program.signature) {
            std::collections::hash_map::Entry::Occupied(mut members) => members.get_mut().push(i),
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(vec![i]);
                for key in keys {
                    buckets.entry(key).or_default().push(i);
                }
            }
        }
    }
    found
}

/// The fewest agreeing slots whose share reaches `threshold` (`None` above 1).
fn agreeing_needed(threshold: f64) -> Option<usize> {
    (0..=SIGNATURE).find(|&agree| agree as f64 / SIGNATURE as f64 >= threshold)
}

/// The signature's band keys when `needed` slots must agree: `SIGNATURE - needed + 1` bands, so
/// two signatures that close share at least one key; one key for all when nothing must agree.
fn band_keys(signature: &[u64; SIGNATURE], needed: usize) -> Vec<(usize, u64)> {
    if needed == 0 {
        return vec![(0, 0)];
    }
    let bands = SIGNATURE - needed + 1;
    (0..bands)
        .map(|band| {
            let slots = &signature[band * SIGNATURE / bands..(band + 1) * SIGNATURE / bands];
            (band, slots.iter().fold(band as u64, |hash, &slot| splitmix64(hash ^ slot)))
        })
        .collect()
}

/// [`similarity`] when it is at least `threshold`, else `None`; it stops counting as soon as too
/// many slots differ for the threshold to be reached, so unlike pairs cost a few comparisons.
fn similarity_at_least(a: &[u64; SIGNATURE], b: &[u64; SIGNATURE], threshold: f64) -> Option<f64> {
    let share = |agree: usize| agree as f64 / SIGNATURE as f64;
    let needed = agreeing_needed(threshold)?;
    let mut differing = 0;
    for (x, y) in a.iter().zip(b) {
        if x != y {
            differing += 1;
            if differing > SIGNATURE - needed {
                return None;
            }
        }
    }
    Some(share(SIGNATURE - differing))
}

/// How comments are written: by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Family {
    /// `# …` to the end of the line (Python, shell, Ruby, R, Julia, YAML, TOML).
    Hash,
    /// `// …` and `/* … */` (C, C++, Rust, Go, Java, JavaScript, TypeScript, C#, Swift, Kotlin).
    Slash,
    /// `-- …` (SQL, Haskell, Lua).
    DoubleDash,
}

impl Family {
    fn of(code_path: &str) -> Option<Family> {
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
fn normalised_code(code: &str, family: Option<Family>) -> String {
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
fn minhash(code: &str) -> [u64; SIGNATURE] {
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
fn similarity(a: &[u64; SIGNATURE], b: &[u64; SIGNATURE]) -> f64 {
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

fn splitmix64(mut x: u64) -> u64 {
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

    const SUM: &str = "def f(items):\n    total = 0\n    for x in items:\n        total += x * x\n    return total\n";

    fn signed(codes: &[(&str, &str)]) -> CodeSignatures {
        let mut signatures = CodeSignatures::default();
        for (id, code) in codes {
            signatures.insert(id, code, "/f.py", None);
        }
        signatures
    }

    #[test]
    fn a_near_duplicate_names_the_closest_earlier_program_and_ties_go_to_the_earliest() {
        let edited = SUM.replace("x * x", "x * x * 2");
        let other = "class Cache:\n    def __init__(self):\n        self.store = {}\n";
        let signatures = signed(&[("a", SUM), ("b", other), ("c", SUM), ("d", &edited), ("e", SUM)]);
        let near = signatures.near_duplicates(["a", "b", "c", "d", "e"], Some(0.5));
        let pairs: Vec<(&str, &str)> = near.iter().map(|n| (n.id.as_str(), n.of.as_str())).collect();
        // c and e equal a (1.0): a, the earliest, not c; d is closer to a than to nothing.
        assert_eq!(pairs, [("c", "a"), ("d", "a"), ("e", "a")]);
        assert_eq!(near[0].similarity, 1.0);
        assert!(near[1].similarity < 1.0 && near[1].similarity >= 0.5, "{near:?}");
        // The order given is the order added: the later one is the near-duplicate.
        let reversed = signatures.near_duplicates(["e", "c", "a"], None);
        assert_eq!(
            reversed.iter().map(|n| (n.id.as_str(), n.of.as_str())).collect::<Vec<_>>(),
            [("c", "e"), ("a", "e")]
        );
    }

    #[test]
    fn below_the_threshold_and_migration_copies_are_not_near_duplicates() {
        let edited = SUM.replace("x * x", "x * x * 2");
        let signatures = signed(&[("a", SUM), ("d", &edited)]);
        let alike = similarity(&minhash(SUM), &minhash(&edited));
        assert!(alike < 1.0);
        assert_eq!(signatures.near_duplicates(["a", "d"], Some(alike)).len(), 1);
        assert!(signatures.near_duplicates(["a", "d"], Some(alike + 1.0 / 64.0)).is_empty());
        let mut copies = signed(&[("a", SUM)]);
        copies.insert("a-copy", SUM, "/f.py", Some("a"));
        copies.insert("b", SUM, "/f.py", None);
        let near = copies.near_duplicates(["a", "a-copy", "b"], None);
        assert_eq!(near.iter().map(|n| (n.id.as_str(), n.of.as_str())).collect::<Vec<_>>(), [("b", "a")]);
        copies.remove("a");
        assert!(!copies.contains("a") && copies.len() == 2);
        let near = copies.near_duplicates(["a", "a-copy", "b"], None);
        assert_eq!(near.iter().map(|n| (n.id.as_str(), n.of.as_str())).collect::<Vec<_>>(), [("b", "a-copy")]);
    }

    #[test]
    fn the_database_lists_what_its_live_programs_signatures_give() {
        use crate::api::AddRequest;
        use crate::config::Config;
        use crate::metrics::Metrics;
        let config = Config::from_json(r#"{"nearDuplicate": 0.6}"#).unwrap();
        let mut db = Database::new(config, 3).unwrap();
        let codes = [SUM.to_string(), SUM.replace("x * x", "x * x * 2"), "y = 1\n".into(), format!("# again\n{SUM}")];
        let mut signatures = CodeSignatures::default();
        for (i, code) in codes.iter().enumerate() {
            let request = AddRequest {
                id: Some(format!("p{i}")),
                parent_id: if i == 0 { "0".into() } else { "p0".into() },
                ..AddRequest::seed("/f.py", code, Metrics::new([("s", i as f64)]).unwrap())
            };
            db.add(request, 1.0 + i as f64).unwrap();
            signatures.insert(&format!("p{i}"), code, "/f.py", None);
        }
        let live: Vec<&str> = db.programs().map(|p| &*p.id).collect();
        let near = db.near_duplicates();
        assert_eq!(near, signatures.near_duplicates(live.iter().copied(), Some(0.6)));
        assert_eq!(
            near.iter().map(|n| (n.id.as_str(), n.of.as_str())).collect::<Vec<_>>(),
            [("p1", "p0"), ("p3", "p0")]
        );
        // What `admit` says of p1's code against p0 alone: the same similarity.
        let mut first = Database::new(Config::from_json(r#"{"nearDuplicate": 0.6}"#).unwrap(), 3).unwrap();
        first.add(AddRequest::seed("/f.py", SUM, Metrics::new([("s", 0.0)]).unwrap()), 1.0).unwrap();
        let admitted = first.admit(&codes[1], "/f.py");
        assert_eq!((admitted.verdict, admitted.similarity), (AdmissionVerdict::NearDuplicate, near[0].similarity));
    }

    #[test]
    fn a_pair_at_the_threshold_is_found_however_its_differing_slots_fall() {
        // At 0.9, 58 of 64 slots must agree: six may differ, here one in each of six bands of
        // the seven, so only the seventh holds the pair together.
        let a: [u64; SIGNATURE] = std::array::from_fn(|slot| slot as u64);
        let mut b = a;
        for slot in [0, 10, 21, 32, 42, 53] {
            b[slot] += 1000;
        }
        let signed = [Signed { id: "a", origin: "a", signature: a }, Signed { id: "b", origin: "b", signature: b }];
        let near = closest_earlier(&signed, 0.9);
        assert_eq!(near, [NearDuplicate { id: "b".into(), of: "a".into(), similarity: 58.0 / 64.0 }]);
        assert!(closest_earlier(&signed, 59.0 / 64.0).is_empty());
    }

    /// Every pair compared, the straightforward way: what `closest_earlier` must answer.
    fn pairwise(signed: &[Signed], threshold: f64) -> Vec<NearDuplicate> {
        let mut found = Vec::new();
        for (i, program) in signed.iter().enumerate() {
            let mut closest: Option<(f64, &str)> = None;
            for earlier in signed[..i].iter().filter(|earlier| earlier.origin != program.origin) {
                let alike = similarity(&program.signature, &earlier.signature);
                if alike >= threshold && closest.is_none_or(|(best, _)| alike > best) {
                    closest = Some((alike, earlier.id));
                }
            }
            if let Some((similarity, of)) = closest {
                found.push(NearDuplicate { id: program.id.into(), of: of.into(), similarity });
            }
        }
        found
    }

    proptest::proptest! {
        #[test]
        fn the_bands_find_what_comparing_every_pair_finds(
            codes in proptest::collection::vec(("[ab =+\n]{0,24}", 0usize..4), 0..24),
            threshold in proptest::prop_oneof![0.0f64..=1.0, proptest::sample::select(vec![0.0, 0.5, 0.9, 1.0])],
        ) {
            let ids: Vec<String> = (0..codes.len()).map(|i| format!("p{i}")).collect();
            // A few programs are migration copies of another (origin: that one's id).
            let origins: Vec<String> = codes.iter().enumerate()
                .map(|(i, (_, copy))| if *copy == 0 && i > 0 { ids[i - 1].clone() } else { ids[i].clone() })
                .collect();
            let signed: Vec<Signed> = codes.iter().enumerate()
                .map(|(i, (code, _))| Signed { id: &ids[i], origin: &origins[i], signature: minhash(code) })
                .collect();
            proptest::prop_assert_eq!(closest_earlier(&signed, threshold), pairwise(&signed, threshold));
        }


        #[test]
        fn the_early_stop_changes_no_answer(a in "[a-c =+()\n]{0,40}", b in "[a-c =+()\n]{0,40}", t in 0.0f64..=1.0) {
            let (x, y) = (minhash(&a), minhash(&b));
            let full = similarity(&x, &y);
            proptest::prop_assert_eq!(similarity_at_least(&x, &y, t), (full >= t).then_some(full));
        }
    }
}
