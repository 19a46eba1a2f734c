//! Issue 37: "samples keep only the newest 5 notes, so the decisive early lesson had scrolled out
//! by iteration 8", and "automatic failure notes say why a candidate failed, not what it tried".
//! The notes window is chosen by relevance (lessons first, then the notes about the parent), and
//! an error add's failure note says what the candidate tried.

use evodb_core::{AddRequest, Config, Database, Metrics, NoteKind, NoteRequest, Status};

fn note(kind: NoteKind, text: &str, program_id: Option<&str>) -> NoteRequest {
    NoteRequest { kind, text: text.into(), target: None, program_id: program_id.map(String::from) }
}

#[test]
fn an_early_lesson_and_the_parents_notes_stay_in_the_window() {
    let config = Config::from_json(r#"{"numIslands": 1, "notes": {"perSample": 3}}"#).unwrap();
    let mut db = Database::new(config, 1).unwrap();
    let seed = db.add(AddRequest::seed("/s.py", "x = 0", Metrics::new([("score", 0.5)]).unwrap()), 0.0).unwrap().id;
    db.note(note(NoteKind::Lesson, "slice assignment beats inner loops", None)).unwrap();
    db.note(note(NoteKind::Idea, "about the parent", Some(&seed))).unwrap();
    for i in 0..8 {
        db.note(note(NoteKind::Idea, &format!("idea {i}"), None)).unwrap();
    }
    let texts: Vec<String> = db.sample().notes.into_iter().map(|n| n.text).collect();
    assert_eq!(texts, ["slice assignment beats inner loops", "about the parent", "idea 7"]);
    let plan = db.plan(1, &[], &[]).unwrap();
    let texts: Vec<&str> = plan.items[0].notes.iter().map(|n| n.text.as_str()).collect();
    assert_eq!(texts, ["slice assignment beats inner loops", "about the parent", "idea 7"]);
}

#[test]
fn a_failure_note_says_what_the_candidate_tried() {
    let mut db = Database::new(Config::default(), 1).unwrap();
    let seed = db.add(AddRequest::seed("/s.py", "x = 0", Metrics::new([("score", 0.5)]).unwrap()), 0.0).unwrap().id;
    let failed = AddRequest {
        code_path: "/c.py".into(),
        target_code: "x = 1".into(),
        parent_id: seed,
        metrics: Metrics::default(),
        changes: "numpy vectorised the DP table\nand more".into(),
        status: Status::Error,
        reason: Some("ImportError: numpy".into()),
        ..AddRequest::seed("", "", Metrics::default())
    };
    db.add(failed, 1.0).unwrap();
    let notes = db.notes(None, Some(NoteKind::Failure), None);
    assert_eq!(notes[0].text, "tried: numpy vectorised the DP table — failed: ImportError: numpy");
}
