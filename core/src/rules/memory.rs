//! Run memory: `note` keeps a lesson, failure or idea; `notes` lists them; each sample and plan
//! item carries the most recent ones (`recent_notes`), bounded by `config.notes`.

use crate::api::{MAX_NOTE_BYTES, Note, NoteKind, NoteRequest};
use crate::database::Database;
use crate::database::Event;
use crate::error::Result;

/// Notes kept at most; the oldest go first. Enough for a long run's lessons, small enough that
/// the database stays quick to rewrite.
pub(crate) const MAX_KEPT_NOTES: usize = 1_000;

impl Database {
    /// `note`: keeps a note for the workers after this one.
    ///
    /// ```
    /// use evodb_core::{Config, Database, NoteKind, NoteRequest};
    /// let mut db = Database::new(Config::default(), 1).unwrap();
    /// let request = NoteRequest { kind: NoteKind::Lesson, text: "memoise the sieve".into(), target: None, program_id: None };
    /// assert_eq!(db.note(request).unwrap().seq, 1);
    /// assert_eq!(db.notes(None, None, None)[0].text, "memoise the sieve");
    /// ```
    pub fn note(&mut self, request: NoteRequest) -> Result<Note> {
        request.validate()?;
        if self.recording() {
            self.emit(Event::Noted { request: request.clone() });
        }
        Ok(self.keep_note(request))
    }

    /// `notes`: newest first; with `target`, that target's notes and the run-wide ones; with
    /// `kind`, that kind only; at most `limit`.
    pub fn notes(&self, target: Option<&str>, kind: Option<NoteKind>, limit: Option<u32>) -> Vec<Note> {
        let limit = limit.map_or(usize::MAX, |n| n as usize);
        self.notes
            .iter()
            .rev()
            .filter(|note| is_for(note, target) && kind.is_none_or(|kind| note.kind == kind))
            .take(limit)
            .cloned()
            .collect()
    }

    /// `keep_note`: numbered after the last note, stamped with `lastIteration`; past
    /// [`MAX_KEPT_NOTES`] the oldest is dropped.
    pub(crate) fn keep_note(&mut self, request: NoteRequest) -> Note {
        let note = Note {
            seq: self.notes.last().map_or(1, |last| last.seq + 1),
            kind: request.kind,
            text: request.text,
            target: request.target,
            program_id: request.program_id,
            iteration: self.last_iteration,
        };
        self.notes.push(note.clone());
        let excess = self.notes.len().saturating_sub(MAX_KEPT_NOTES);
        self.notes.drain(..excess);
        note
    }

    /// `note_failure`: an `error` add leaves its reason, and what the candidate tried (the first
    /// line of its `changes`), as a failure note, so every worker learns what broke and with
    /// which idea without reading the history.
    pub(crate) fn note_failure(&mut self, program_id: &str, reason: &str, changes: &str, target: Option<String>) {
        let reason = reason.trim();
        if reason.is_empty() {
            return;
        }
        let tried = changes.lines().map(str::trim).find(|line| !line.is_empty());
        let text = match tried {
            Some(tried) => format!("tried: {tried} — failed: {reason}"),
            None => reason.to_string(),
        };
        let mut end = text.len().min(MAX_NOTE_BYTES);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let text = text[..end].trim();
        self.keep_note(NoteRequest {
            kind: NoteKind::Failure,
            text: text.to_string(),
            target,
            program_id: Some(program_id.to_string()),
        });
    }

    /// `recent_notes`: what a sample or plan item carries — the notes for `target` chosen by
    /// relevance, not only recency (`notes_window`): lessons first (a transferable rule stays in
    /// view however early it was learnt), then the notes about `parent` (its failures, a note
    /// taken with `--programId`), then the rest; newest first within each. At most
    /// `notes.perSample` of them, their texts within `notes.maxBytes` together (a note that does
    /// not fit is skipped for a less relevant, shorter one).
    pub(crate) fn recent_notes(&self, target: Option<&str>, parent: Option<&str>) -> Vec<Note> {
        let limits = &self.config.notes;
        let relevance = |note: &Note| match (note.kind, note.program_id.as_deref()) {
            (NoteKind::Lesson, _) => 0,
            (_, Some(about)) if Some(about) == parent => 1,
            _ => 2,
        };
        let mut window: Vec<&Note> = self.notes.iter().rev().filter(|note| is_for(note, target)).collect();
        // Stable: newest first within each rank.
        window.sort_by_key(|note| relevance(note));
        let mut bytes = 0;
        let mut recent = Vec::new();
        for note in window {
            if recent.len() == limits.per_sample as usize {
                break;
            }
            if bytes + note.text.len() <= limits.max_bytes as usize {
                bytes += note.text.len();
                recent.push(note.clone());
            }
        }
        recent
    }
}

/// A run-wide note is for every target; a target's note only for it (all, when none is asked).
fn is_for(note: &Note, target: Option<&str>) -> bool {
    match (target, note.target.as_deref()) {
        (Some(asked), Some(of)) => asked == of,
        _ => true,
    }
}
