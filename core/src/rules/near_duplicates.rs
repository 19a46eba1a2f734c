//! `near_duplicates` asks `admit`'s question of the population itself: which live programs
//! `admit` would have called a near-duplicate (or a duplicate) of an earlier-added live program,
//! and of which. [`CodeSignatures`] keeps each program's signature, so a page scrubbing a run's
//! timeline compares the population of any moment without signing the same code twice.

use std::collections::HashMap;

use super::admission::{DEFAULT_NEAR_DUPLICATE, Family, SIGNATURE, minhash, normalised_code, splitmix64};
use crate::api::NearDuplicate;
use crate::database::Database;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::AdmissionVerdict;
    use crate::rules::admission::similarity;
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
