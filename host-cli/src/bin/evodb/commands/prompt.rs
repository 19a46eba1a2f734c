//! `evodb prompt <dbPath> --candidatePath P [--from FILE [--item NAME]]`: the playbook's prompt
//! for one sample or plan item, filled by the core's rule (`Database::render_prompt`): each
//! parent's code, metrics, change and fitness, inspirations best first, the island's name and
//! the notes, with the problem from the filled playbook and the context file. Without `--from`
//! it takes a new sample first (saved, as `sample` is) and prints it beside the prompt.

use std::path::{Path, PathBuf};

use clap::ArgMatches;
use evodb_core::{
    Database, ExportFormat, Handout, Operator, PromptParts, check_prompt_template, problem_from_playbook,
    prompt_template_name,
};
use evodb_host::Access;
use serde_json::{Value, json};

use crate::context::Context;
use crate::failure::Failure;
use crate::input::read_text;
use crate::matches::{optional, required};
use crate::reply::Reply;

#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
    pub from: Option<PathBuf>,
    pub item: Option<String>,
    pub strategy: PathBuf,
    pub context: PathBuf,
    pub candidate_path: String,
    pub goal: Option<String>,
    pub target_name: Option<String>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            db: required(m, "dbPath"),
            from: optional(m, "from"),
            item: optional(m, "item"),
            strategy: required(m, "strategy"),
            context: required(m, "context"),
            candidate_path: required(m, "candidatePath"),
            goal: optional(m, "goal"),
            target_name: optional(m, "targetName"),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        // Everything that can be refused is read before the sample is taken.
        let playbook = read_text("--strategy", &self.strategy.join("strategy.md"))?;
        let (goal, target_name) = problem_from_playbook(&playbook);
        let parts = PromptParts {
            goal: self.goal.or(goal).ok_or_else(|| missing_problem(&self.strategy, "Goal", "--goal"))?,
            target_name: self
                .target_name
                .or(target_name)
                .ok_or_else(|| missing_problem(&self.strategy, "Target name", "--targetName"))?,
            candidate_path: self.candidate_path,
            context: read_text("--context", &self.context)?,
        };
        let given = self.from.as_deref().map(|from| handout_from(from, self.item.as_deref())).transpose()?;
        if given.is_none() && self.item.is_some() {
            return Err(Failure::Usage("--item picks an item of --from's plan; pass --from too".into()));
        }
        // Every operator's template, read and checked: a new sample may draw any of them.
        let operators = match given.as_ref() {
            Some(handout) => vec![handout.operator.unwrap_or(Operator::Exploitation)],
            None => Operator::ALL.to_vec(),
        };
        let mut templates = Vec::new();
        for operator in operators {
            let path = self.strategy.join("prompts").join(prompt_template_name(operator));
            let template = read_text("--strategy", &path)?;
            check_prompt_template(&template).map_err(|e| Failure::BadInput(format!("{}: {e}", path.display())))?;
            templates.push((operator, path, template));
        }
        let mut session = ctx.engine()?.open(&self.db, if given.is_some() { Access::Read } else { Access::Write })?;
        let (handout, sample) = match given {
            Some(handout) => (handout, None),
            None => {
                let sample = serde_json::to_value(session.sample()?).map_err(internal)?;
                (serde_json::from_value::<Handout>(sample.clone()).map_err(internal)?, Some(sample))
            }
        };
        // Without the operators, every sample asks for a mutation.
        let operator = handout.operator.unwrap_or(Operator::Exploitation);
        let (_, template_path, template) =
            templates.into_iter().find(|(read, _, _)| *read == operator).expect("every operator's template was read");
        let database = Database::from_json(&session.export(ExportFormat::Json)?)?;
        let prompt = database.render_prompt(&template, &handout, &parts)?;
        let mut printed = json!({
            "prompt": prompt,
            "operator": operator,
            "template": template_path.display().to_string(),
        });
        if let Some(sample) = sample {
            printed["sample"] = sample;
        }
        Ok(Reply::json(&printed))
    }
}

/// `--from`'s sample or plan item; from a whole plan, the item `--item` names.
fn handout_from(from: &Path, item: Option<&str>) -> Result<Handout, Failure> {
    let text = read_text("--from", from)?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        Failure::BadInput(format!(
            "--from: `{}` is not JSON ({e}); pass what `evodb sample` or `evodb plan` printed",
            from.display()
        ))
    })?;
    let value = match (value.get("items").and_then(Value::as_array), item) {
        (Some(items), Some(name)) => items.iter().find(|i| i["name"] == name).cloned().ok_or_else(|| {
            let names: Vec<&str> = items.iter().filter_map(|i| i["name"].as_str()).collect();
            Failure::BadInput(format!(
                "--item `{name}` is not an item of this plan; its items are {}",
                names.join(", ")
            ))
        })?,
        (Some(_), None) => {
            return Err(Failure::Usage("--from holds a whole plan: pass --item NAME to say which item".into()));
        }
        (None, Some(_)) => {
            return Err(Failure::Usage("--item picks an item of a plan, but --from holds one item".into()));
        }
        (None, None) => value,
    };
    serde_json::from_value(value)
        .map_err(|e| Failure::BadInput(format!("--from: `{}` is not a sample or a plan item ({e})", from.display())))
}

fn missing_problem(strategy: &Path, label: &str, flag: &str) -> Failure {
    Failure::BadInput(format!(
        "{} states no **{label}**; fill its problem section (`evodb strategy check` lists what is left) or pass {flag}",
        strategy.join("strategy.md").display()
    ))
}

fn internal(err: serde_json::Error) -> Failure {
    Failure::Internal(format!("a sample is not a handout ({err}); this is a bug in evodb"))
}
