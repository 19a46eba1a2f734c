//! Issue 37: the tool fills the playbook's prompts. `render_prompt` fills every placeholder of
//! the shipped templates from a sample or a plan item — each parent's code, metrics, change and
//! fitness, inspirations best first, the island's name — and refuses a template that would reach
//! a mutator with a placeholder or an unfilled `<CUSTOMIZE: …>` marker left.

use evodb_core::{
    AddRequest, Config, Database, Handout, HandoutProgram, Metrics, PromptParts, problem_from_playbook,
    prompt_template_name,
};

const TEMPLATES: [(&str, &str); 4] = [
    ("mutation.md", include_str!("../../skill/strategies/alphaevolve/prompts/mutation.md")),
    ("exploration.md", include_str!("../../skill/strategies/alphaevolve/prompts/exploration.md")),
    ("crossover.md", include_str!("../../skill/strategies/alphaevolve/prompts/crossover.md")),
    ("migration.md", include_str!("../../skill/strategies/alphaevolve/prompts/migration.md")),
];

/// The shipped template with its `<CUSTOMIZE: …>` markers filled, as a user's playbook is.
fn filled(template: &str) -> String {
    template
        .lines()
        .map(|line| if line.contains("<CUSTOMIZE:") { "Use plain loops." } else { line })
        .collect::<Vec<_>>()
        .join("\n")
}

fn run() -> Database {
    let config = Config::from_json(
        r#"{"islands": [{"name": "loops", "description": "plain loops"}, {"name": "tables", "description": "dynamic programming tables"}], "operators": {}}"#,
    )
    .unwrap();
    let mut db = Database::new(config, 3).unwrap();
    let seed = db.add(AddRequest::seed("/s.py", "def f(): return 0", Metrics::new([("score", 0.2)]).unwrap()), 1.0);
    let seed = seed.unwrap().id;
    for (i, score) in [0.4, 0.3, 0.6].into_iter().enumerate() {
        let request = AddRequest {
            code_path: format!("/c/{i}.py"),
            target_code: format!("def f(): return {i}  # {{{{not a placeholder}}}}"),
            parent_id: seed.clone(),
            metrics: Metrics::new([("score", score)]).unwrap(),
            changes: format!("change {i}"),
            ..AddRequest::seed("", "", Metrics::default())
        };
        db.add(request, 2.0 + i as f64).unwrap();
    }
    db
}

fn parts() -> PromptParts {
    PromptParts {
        goal: "make f fast".into(),
        target_name: "f".into(),
        candidate_path: "evolve-output/candidates/iter_5.py".into(),
        context: "f returns an int".into(),
    }
}

#[test]
fn every_shipped_template_is_filled_whole_for_a_sample() {
    let mut db = run();
    for _ in 0..12 {
        let sample = db.sample();
        let operator = sample.operator.expect("operators are on");
        let handout: Handout = serde_json::from_value(serde_json::to_value(&sample).unwrap()).unwrap();
        let (_, template) = TEMPLATES.iter().find(|(name, _)| *name == prompt_template_name(operator)).unwrap();
        let prompt = db.render_prompt(&filled(template), &handout, &parts()).unwrap();
        assert!(!prompt.contains("{{goal") && !prompt.contains("{{parent"), "{prompt}");
        let parent = sample.parent.as_ref().unwrap();
        let fitness = db.fitness(&parent.id).unwrap();
        assert!(prompt.contains(&format!("(fitness {fitness})")), "the parent's fitness is shown:\n{prompt}");
        assert!(prompt.contains(parent.target_code.as_ref()), "the parent's code is shown");
        assert!(prompt.contains("make f fast") && prompt.contains("iter_5.py"), "{prompt}");
        assert!(!prompt.contains("<!-- placeholders"), "the editor's note is dropped");
    }
}

#[test]
fn a_plan_item_gets_its_parents_and_its_islands_best_as_inspirations() {
    let mut db = run();
    let plan = db.plan(1, &[], &[]).unwrap();
    let item = &plan.items[0];
    let handout: Handout = serde_json::from_value(serde_json::to_value(item).unwrap()).unwrap();
    let prompt = db.render_prompt(&filled(TEMPLATES[0].1), &handout, &parts()).unwrap();
    let parent = db.program(&item.parent_ids[0]).unwrap();
    assert!(prompt.contains(parent.target_code.as_ref()), "{prompt}");
    let section = prompt.split("best first)").nth(1).unwrap_or(&prompt);
    let lines: Vec<&str> = section.lines().filter(|line| line.starts_with("- {")).collect();
    let fitness: Vec<f64> = lines
        .iter()
        .map(|line| line.split("(fitness ").nth(1).unwrap().split(')').next().unwrap().parse().unwrap())
        .collect();
    assert!(fitness.windows(2).all(|w| w[0] >= w[1]), "best first: {fitness:?}");
}

#[test]
fn an_unfilled_playbook_or_an_unknown_placeholder_is_refused_naming_it() {
    let db = run();
    let handout =
        Handout { parent: Some(HandoutProgram { id: db.best().unwrap().id.to_string() }), ..Handout::default() };
    let err = db.render_prompt(TEMPLATES[0].1, &handout, &parts()).unwrap_err().to_string();
    assert!(err.contains("<CUSTOMIZE") && err.contains("strategy check"), "{err}");
    let err = db.render_prompt("{{goal}} {{budget}}", &handout, &parts()).unwrap_err().to_string();
    assert!(err.contains("{{budget}}"), "{err}");
    let gone = Handout { parent: Some(HandoutProgram { id: "pruned".into() }), ..Handout::default() };
    let err = db.render_prompt("{{parent_code}}", &gone, &parts()).unwrap_err().to_string();
    assert!(err.contains("`pruned`"), "{err}");
}

#[test]
fn code_that_contains_braces_is_never_filled_again() {
    let db = run();
    let best = db.best().unwrap();
    let handout = Handout { parent: Some(HandoutProgram { id: best.id.to_string() }), ..Handout::default() };
    let prompt = db.render_prompt("{{parent_code}}|{{inspirations}}", &handout, &parts()).unwrap();
    assert!(prompt.starts_with(best.target_code.as_ref()), "{prompt}");
}

#[test]
fn the_problem_is_read_from_a_filled_playbook() {
    let playbook = "## The problem\n\n- **Goal**: make lcs fast\n- **Target name**: lcs\n";
    assert_eq!(problem_from_playbook(playbook), (Some("make lcs fast".into()), Some("lcs".into())));
    assert_eq!(problem_from_playbook("nothing"), (None, None));
}
