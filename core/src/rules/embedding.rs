//! `admit` by the caller's own embedding (issue 41): a fleet that already embeds its candidates
//! (any model) stores each program's vector with its add (`add --embedding`) and asks `admit`
//! with the new candidate's vector; a candidate whose cosine similarity to a live program's
//! stored vector reaches `embeddingThreshold` (else `nearDuplicate`, else 0.9) is a
//! near-duplicate of the closest one. Exact duplicates are still found by the code itself
//! (`duplicate_of`), before any vector is compared. Every vector of a run has one length (the
//! first stored one's): a vector of another length is refused, naming both.

use crate::api::{Admission, AdmissionVerdict, embedding_problem};
use crate::database::Database;
use crate::error::{Error, Result};

use super::admission::{DEFAULT_NEAR_DUPLICATE, closest_verdict};

/// The cosine similarity of two vectors of one length, neither all zeros.
fn cosine(a: &[f64], b: &[f64]) -> f64 {
    let (mut dot, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        aa += x * x;
        bb += y * y;
    }
    dot / (aa.sqrt() * bb.sqrt())
}

impl Database {
    /// The length every embedding of this run has: the first stored one's (a live program's,
    /// else a held answer's); `None` before any is stored.
    fn embedding_length(&self) -> Option<usize> {
        let held = self.pending.iter().filter_map(|item| item.held.as_ref()).map(|held| &held.request.embedding);
        self.programs()
            .filter_map(|program| program.embedding.as_ref().map(|e| e.len()))
            .chain(held.filter_map(|embedding| embedding.as_ref().map(Vec::len)))
            .next()
    }

    /// `embedding_length_check`: `embedding` (named `field`) has the run's length.
    pub(crate) fn check_embedding_length(&self, field: &str, embedding: &[f64]) -> Result<()> {
        match self.embedding_length() {
            Some(length) if length != embedding.len() => Err(Error::input(
                field,
                format!(
                    "has {} numbers, but this run's stored embeddings have {length}; embed every candidate with the \
                     same model (vectors of {length} numbers)",
                    embedding.len()
                ),
            )),
            _ => Ok(()),
        }
    }

    /// `admit` by the caller's embedding of `code`: `duplicate` when the code equals a live
    /// program's (as [`Database::admit`] finds it), else `near-duplicate` of the live program
    /// whose stored embedding is closest when their cosine similarity reaches the threshold
    /// (`embeddingThreshold`, else `nearDuplicate`, else 0.9), else `evaluate`. Programs added
    /// without an embedding are compared by code only. `similarity` is the cosine, at least 0.
    /// Reads only. An embedding that is empty, not finite, all zeros or of another length than
    /// the run's is refused.
    ///
    /// ```
    /// use evodb_core::{AddRequest, AdmissionVerdict, Config, Database, Metrics};
    /// let mut db = Database::new(Config::default(), 1).unwrap();
    /// let seed = AddRequest::seed("/f.py", "def f(): return 1", Metrics::new([("s", 0.5)]).unwrap());
    /// db.add(AddRequest { embedding: Some(vec![1.0, 0.0, 0.0]), ..seed }, 1.0).unwrap();
    /// let near = db.admit_embedding("def g(): return 2", "/g.py", &[0.99, 0.1, 0.0]).unwrap();
    /// assert_eq!((near.verdict, near.of.as_deref()), (AdmissionVerdict::NearDuplicate, Some(db.best_id().unwrap())));
    /// let far = db.admit_embedding("def g(): return 2", "/g.py", &[0.0, 1.0, 0.0]).unwrap();
    /// assert_eq!((far.verdict, far.similarity), (AdmissionVerdict::Evaluate, 0.0));
    /// assert!(db.admit_embedding("def g(): return 2", "/g.py", &[1.0, 0.0]).is_err()); // another length
    /// ```
    pub fn admit_embedding(&self, code: &str, code_path: &str, embedding: &[f64]) -> Result<Admission> {
        embedding_problem(embedding).map_err(|why| Error::input("embedding", why))?;
        self.check_embedding_length("embedding", embedding)?;
        if let Some(id) = self.duplicate_of(code, code_path) {
            return Ok(Admission { verdict: AdmissionVerdict::Duplicate, of: Some(id.to_string()), similarity: 1.0 });
        }
        let threshold =
            self.config.embedding_threshold.or(self.config.near_duplicate).unwrap_or(DEFAULT_NEAR_DUPLICATE);
        let mut closest: Option<(f64, &str)> = None;
        for program in self.programs() {
            let Some(theirs) = program.embedding.as_deref().filter(|theirs| theirs.len() == embedding.len()) else {
                continue;
            };
            let similarity = cosine(embedding, theirs).clamp(0.0, 1.0);
            if closest.is_none_or(|(best, _)| similarity > best) {
                closest = Some((similarity, &program.id));
            }
        }
        Ok(closest_verdict(closest, threshold))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_is_the_angle_not_the_length() {
        assert!((cosine(&[1.0, 2.0], &[2.0, 4.0]) - 1.0).abs() < 1e-12);
        assert_eq!(cosine(&[1.0, 0.0], &[0.0, 3.0]), 0.0);
        assert_eq!(cosine(&[1.0, 0.0], &[-1.0, 0.0]), -1.0);
    }
}
