//! The one error type of the engine. Every message names the problem and the fix; `code()` gives
//! faces (JS, WIT, CLI) a stable machine-readable tag.

/// Everything that can go wrong in the engine.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// A configuration value is missing, of the wrong type or out of range.
    #[error("invalid config: `{field}` {problem}")]
    InvalidConfig { field: String, problem: String },

    /// An operation's input (a metric, an id, an island, a timestamp…) is unusable.
    #[error("invalid input: `{field}` {problem}")]
    InvalidInput { field: String, problem: String },

    /// A caller-supplied id is already taken by a live program.
    #[error("duplicate id: a program with id `{0}` already exists; pass a new id or omit it to get a generated one")]
    DuplicateId(String),

    /// A database text that is not a valid evodb or seed `database.json`.
    #[error("corrupt database: {problem}; restore the file from a backup or start a new database")]
    CorruptDatabase { problem: String },
}

impl Error {
    /// Stable tag for bindings and conformance vectors.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidConfig { .. } => "invalid-config",
            Error::InvalidInput { .. } => "invalid-input",
            Error::DuplicateId(_) => "duplicate-id",
            Error::CorruptDatabase { .. } => "corrupt-database",
        }
    }

    pub(crate) fn config(field: impl Into<String>, problem: impl Into<String>) -> Self {
        Error::InvalidConfig { field: field.into(), problem: problem.into() }
    }

    pub(crate) fn input(field: impl Into<String>, problem: impl Into<String>) -> Self {
        Error::InvalidInput { field: field.into(), problem: problem.into() }
    }

    pub(crate) fn corrupt(problem: impl Into<String>) -> Self {
        Error::CorruptDatabase { problem: problem.into() }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Parses JSON text, keeping where a bad value sits: `(Some("a.b"), err)`, or `(None, err)` when
/// the problem is the text as a whole.
///
/// Good text, the common case, is parsed once without tracking the path: tracking allocates a
/// segment for every key it passes, which made loading a database ~20% slower natively and cost
/// the CLI ~0.4 ms a call in the component (docs/performance.md). Only text that fails is parsed
/// again, tracked, for the message; serde_json's parse is deterministic, so the second run fails
/// where the first did.
pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, (Option<String>, serde_json::Error)> {
    serde_json::from_str(text).or_else(|_| parse_json_tracked(text))
}

/// [`parse_json`]'s second run: the same parse, tracking where it is.
#[cold]
fn parse_json_tracked<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, (Option<String>, serde_json::Error)> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut *de).map_err(|e| {
        let path = e.path().to_string();
        (if path == "." { None } else { Some(path) }, e.into_inner())
    })?;
    // One JSON value and whitespace, nothing after it: a writer that rewrote the file would
    // otherwise drop whatever followed.
    de.end().map_err(|e| (None, e))?;
    Ok(value)
}
