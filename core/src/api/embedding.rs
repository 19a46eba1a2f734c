//! What makes a caller's embedding usable (`add --embedding`, `admit --embedding`): checked
//! where the request is, and when a stored one is loaded. The comparison is a rule
//! (`rules/embedding.rs`).

/// The longest embedding an add or an admission takes (today's models give up to 4,096).
pub const MAX_EMBEDDING_LENGTH: usize = 16_384;

/// Why `embedding` cannot be compared: empty, too long, not finite or all zeros (no direction).
pub(crate) fn embedding_problem(embedding: &[f64]) -> std::result::Result<(), String> {
    if embedding.is_empty() {
        return Err(
            "is empty; pass the candidate's embedding as a JSON list of numbers, e.g. [0.12, -0.5, 0.33]".into()
        );
    }
    if embedding.len() > MAX_EMBEDDING_LENGTH {
        return Err(format!(
            "has {} numbers, over the limit of {MAX_EMBEDDING_LENGTH}; pass the embedding model's output as it is",
            embedding.len()
        ));
    }
    if let Some((i, value)) = embedding.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(format!("[{i}] is {value}; pass finite numbers only"));
    }
    if embedding.iter().all(|v| *v == 0.0) {
        return Err("is all zeros, which has no direction to compare; pass the model's embedding of the code".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_embeddings_name_their_problem() {
        assert!(embedding_problem(&[]).unwrap_err().contains("empty"));
        assert!(embedding_problem(&[0.1, f64::NAN]).unwrap_err().starts_with("[1] is NaN"));
        assert!(embedding_problem(&[0.0, 0.0]).unwrap_err().contains("all zeros"));
        assert!(embedding_problem(&vec![0.5; MAX_EMBEDDING_LENGTH + 1]).unwrap_err().contains("over the limit"));
        assert!(embedding_problem(&[0.0, -0.5]).is_ok());
    }
}
