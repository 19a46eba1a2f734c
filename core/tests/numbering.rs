//! Issue 37: one numbering of programs. The same program was `iterationFound 19` in `best`, `#22`
//! in the tree, "Candidate 22 · gen 19" in the markdown (where `gen` printed the iteration) and
//! "iteration 21" in the playground. Now its candidate number (`seq`) is the tree's `#N` and the
//! markdown's `Candidate N`, and `gen` is its generation everywhere.

use evodb_core::{AddRequest, Config, Database, ExportFormat, Metrics, Status};

fn child(parent: &str, i: u32, status: Status) -> AddRequest {
    AddRequest {
        code_path: format!("/c/{i}.py"),
        target_code: format!("def f(): return {i}"),
        parent_id: parent.into(),
        metrics: Metrics::new([("score", 0.1 * f64::from(i))]).unwrap(),
        changes: format!("change {i}"),
        status,
        reason: (status == Status::Error).then(|| "crashed".to_string()),
        ..AddRequest::seed("", "", Metrics::default())
    }
}

#[test]
fn the_tree_and_the_markdown_number_a_program_alike_and_print_its_generation() {
    let mut db = Database::new(Config::from_json(r#"{"numIslands": 1}"#).unwrap(), 1).unwrap();
    let seed = db.add(AddRequest::seed("/s.py", "def f(): return 0", Metrics::new([("score", 0.0)]).unwrap()), 0.0);
    let seed = seed.unwrap().id;
    let a = db.add(child(&seed, 1, Status::Accepted), 1.0).unwrap().id;
    db.add(child(&a, 2, Status::Error), 2.0).unwrap();
    let b = db.add(child(&a, 3, Status::Accepted), 3.0).unwrap().id;
    let program = db.program(&b).unwrap();
    // Candidate 4 (the error was candidate 3), generation 2, iterationFound 2.
    assert_eq!((program.seq(), program.generation, program.iteration_found), (4, 2, 2));
    let markdown = db.export(ExportFormat::Markdown);
    assert!(markdown.contains("### Candidate 4 · island 0 · fitness 0.3 · gen 2\n"), "{markdown}");
    let tree = db.export(ExportFormat::Tree);
    let line = tree.lines().find(|line| line.contains(&b[..8])).unwrap();
    assert!(line.contains("#4 ") && line.contains(" gen 2 "), "{line}");
}
