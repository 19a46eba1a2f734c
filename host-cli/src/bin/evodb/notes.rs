//! `evodb note` and `evodb notes`: the run's memory (lessons, failures, ideas), kept in the
//! database, carried by every sample and plan item.

use std::path::PathBuf;

use evodb_core::{Note, NoteKind, NoteRequest};
use evodb_host::Access;
use evodb_host::views::{self as output, core};
use serde_json::json;

use crate::commands::{Printed, bad_input, read_text, without_final_newline};
use crate::failure::Failure;
use crate::session::{Runtime, ok};

#[derive(Debug)]
pub struct NoteArgs {
    pub db: PathBuf,
    pub kind: String,
    pub text: Option<String>,
    pub text_file: Option<PathBuf>,
    pub target: Option<String>,
    pub program_id: Option<String>,
}

#[derive(Debug)]
pub struct NotesArgs {
    pub db: PathBuf,
    pub target: Option<String>,
    pub kind: Option<String>,
    pub limit: Option<u32>,
}

pub fn note(runtime: &Runtime, args: NoteArgs) -> Result<Printed, Failure> {
    let NoteArgs { db, kind, text, text_file, target, program_id } = args;
    let text = match (text, text_file) {
        (Some(text), _) => text,
        (None, Some(path)) => without_final_newline(read_text("--textFile", &path)?),
        (None, None) => return Err(Failure::Usage("missing --text (or --textFile): what should the note say?".into())),
    };
    let request = json!({ "kind": kind, "text": text, "target": target, "programId": program_id });
    // Checked before the database is opened: a bad note touches nothing.
    let request = NoteRequest::from_json(&request.to_string()).map_err(bad_input)?;
    request.validate().map_err(bad_input)?;
    let request = output::wit(request);
    let mut session = runtime.open(&db, Access::Write)?;
    let warnings = session.new_database_warning();
    let note = session.write(|m, st, db| m.call_note(st, db, &request))?;
    Ok(Printed { stdout: output::json(&core::<_, Note>(note)), warnings })
}

pub fn notes(runtime: &Runtime, NotesArgs { db, target, kind, limit }: NotesArgs) -> Result<Printed, Failure> {
    // The parser allowed only the kinds' names.
    let kind: Option<NoteKind> = kind.and_then(|kind| serde_json::from_value(json!(kind)).ok());
    let kind = kind.map(output::wit);
    let notes =
        runtime.open(&db, Access::Read)?.read(|m, st, db| ok(m.call_notes(st, db, target.as_deref(), kind, limit)))?;
    Ok(output::json(&json!({ "notes": core::<_, Vec<Note>>(notes) })).into())
}
