//! Run memory (evo-anything's reflection memory): notes an agent leaves for every worker after
//! it — a lesson learnt, a failure to avoid, an idea to try — shown with each sample and plan item.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, parse_json};

/// The largest note text (16 KiB): a note is a lesson, not a document; long material belongs in
/// the run's context file.
pub const MAX_NOTE_BYTES: usize = 16 * 1024;

/// What a note records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum NoteKind {
    /// What worked, or why something did not: advice for the next mutations.
    Lesson,
    /// A candidate that failed, and why (an `error` add leaves one by itself).
    Failure,
    /// Something worth trying.
    Idea,
}

/// A note as `note` asks for it.
///
/// ```
/// let req: evodb_core::NoteRequest =
///     serde_json::from_str(r#"{"kind": "lesson", "text": "numpy beats list comprehensions here"}"#).unwrap();
/// assert_eq!(req.kind, evodb_core::NoteKind::Lesson);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NoteRequest {
    pub kind: NoteKind,
    pub text: String,
    /// The target the note is about; none: the whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The program the note is about, if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program_id: Option<String>,
}

/// A stored note.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Note {
    /// 1, 2, 3, … in the order the notes were taken.
    pub seq: u64,
    pub kind: NoteKind,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program_id: Option<String>,
    /// `lastIteration` when the note was taken: how far the run had come.
    pub iteration: u64,
}

impl NoteRequest {
    /// Parses a request from JSON; errors name the offending field.
    pub fn from_json(text: &str) -> Result<NoteRequest> {
        parse_json(text).map_err(|(path, e)| Error::input(path.unwrap_or_else(|| "request".into()), e.to_string()))
    }

    /// Checks the text's size; the error names the field and the fix.
    pub fn validate(&self) -> Result<()> {
        if self.text.trim().is_empty() {
            return Err(Error::input("text", "is empty; say what was learnt, failed or is worth trying"));
        }
        if self.text.len() > MAX_NOTE_BYTES {
            return Err(Error::input(
                "text",
                format!(
                    "is {} bytes; a note holds at most {MAX_NOTE_BYTES} (keep the lesson, put long material in the context file)",
                    self.text.len()
                ),
            ));
        }
        for (field, value) in [("target", &self.target), ("programId", &self.program_id)] {
            if value.as_ref().is_some_and(|v| v.is_empty() || v.len() > 256) {
                return Err(Error::input(field, "must be 1 to 256 bytes, or left out"));
            }
        }
        Ok(())
    }
}
