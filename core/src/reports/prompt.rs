//! `render_prompt`: a playbook's prompt template filled for one sample or plan item, so an agent
//! never digs parents, fitness or inspirations out of an export by hand. The database supplies
//! what it knows (each parent's code, metrics, change and fitness, the inspirations best first,
//! the island's name, the notes); the caller supplies the problem (goal, target, candidate path,
//! context). A placeholder left unfilled, or a `<CUSTOMIZE: …>` marker of an unfilled playbook,
//! is refused: the prompt that reaches a mutator is whole.

use serde::{Deserialize, Serialize};

use crate::api::{Note, NoteKind, Operator};
use crate::database::Database;
use crate::error::{Error, Result};
use crate::metrics::six_places;

/// A sample or a plan item as `sample` and `plan` print them: only the fields a prompt reads.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
pub struct Handout {
    /// A sample's parent (`{"id": …}`; its other fields are read from the database).
    pub parent: Option<HandoutProgram>,
    /// A sample's second parent (crossover's diverse parent, migration's donor program).
    pub second_parent: Option<HandoutProgram>,
    /// A plan item's parents: the parent first, the second parent after it.
    pub parent_ids: Vec<String>,
    pub inspirations: Vec<HandoutProgram>,
    pub operator: Option<Operator>,
    pub island: Option<u32>,
    pub island_name: Option<String>,
    pub island_description: Option<String>,
    pub donor_island_name: Option<String>,
    pub notes: Vec<Note>,
}

/// A program a handout names.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
pub struct HandoutProgram {
    pub id: String,
}

/// What fills a prompt beyond what the database knows: the problem, from the playbook and the
/// agent's workspace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
pub struct PromptParts {
    pub goal: String,
    pub target_name: String,
    pub candidate_path: String,
    pub context: String,
}

/// The prompt file of the playbook for `operator` (`prompts/<name>.md`).
pub fn prompt_template_name(operator: Operator) -> &'static str {
    match operator {
        Operator::Exploitation => "mutation.md",
        Operator::Exploration => "exploration.md",
        Operator::Crossover => "crossover.md",
        Operator::Migration => "migration.md",
    }
}

/// The goal and the target name a filled playbook (`strategy.md`) states in its problem section
/// (`- **Goal**: …`, `- **Target name**: …`); `None` for one it does not state.
pub fn problem_from_playbook(strategy_md: &str) -> (Option<String>, Option<String>) {
    let field = |label: &str| {
        strategy_md.lines().find_map(|line| {
            let value = line.trim_start().strip_prefix(&format!("- **{label}**:"))?.trim();
            (!value.is_empty()).then(|| value.to_string())
        })
    };
    (field("Goal"), field("Target name"))
}

/// Every placeholder a template may use, in the order `render_prompt` fills them.
pub const PLACEHOLDERS: [&str; 16] = [
    "goal",
    "target_name",
    "candidate_path",
    "context",
    "operator",
    "island_name",
    "island_description",
    "donor_island_name",
    "parent_metrics",
    "parent_changes",
    "parent_code",
    "second_parent_metrics",
    "second_parent_changes",
    "second_parent_code",
    "inspirations",
    "notes",
];

/// Refuses a template that would reach a mutator with a hole in it: a placeholder evodb does
/// not fill, or an unfilled `<CUSTOMIZE: …>` marker of the playbook. Checked before anything is
/// sampled, so a refused prompt changes nothing.
pub fn check_prompt_template(template: &str) -> Result<()> {
    let mut unknown: Vec<String> = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else { break };
        let name = after[..end].trim();
        if !PLACEHOLDERS.contains(&name) && !unknown.iter().any(|u| u == name) {
            unknown.push(name.to_string());
        }
        rest = &after[end + 2..];
    }
    if !unknown.is_empty() {
        let list = |names: &mut dyn Iterator<Item = &str>| {
            names.map(|n| format!("{{{{{n}}}}}")).collect::<Vec<_>>().join(", ")
        };
        return Err(Error::input(
            "template",
            format!(
                "has placeholders evodb does not fill: {}; the known ones are {}",
                list(&mut unknown.iter().map(String::as_str)),
                list(&mut PLACEHOLDERS.iter().copied())
            ),
        ));
    }
    if let Some((line, _)) = template.lines().enumerate().find(|(_, line)| line.contains("<CUSTOMIZE:")) {
        return Err(Error::input(
            "template",
            format!(
                "still has a <CUSTOMIZE: …> marker (line {}); fill the playbook first (`evodb strategy check` lists \
                 every marker left)",
                line + 1
            ),
        ));
    }
    Ok(())
}

/// Fills a value that is missing: the playbook's rule.
const NONE: &str = "none";

impl Database {
    /// `template` (a playbook prompt) filled for `handout` and `parts`. Errors name what is
    /// missing: a parent no longer in the run, a placeholder nobody fills, an unfilled
    /// `<CUSTOMIZE: …>` marker.
    pub fn render_prompt(&self, template: &str, handout: &Handout, parts: &PromptParts) -> Result<String> {
        let parent_id =
            handout.parent.as_ref().map(|p| p.id.as_str()).or(handout.parent_ids.first().map(String::as_str));
        let second_id =
            handout.second_parent.as_ref().map(|p| p.id.as_str()).or(handout.parent_ids.get(1).map(String::as_str));
        let parent = parent_id.map(|id| self.prompt_program(id)).transpose()?;
        let second = second_id.map(|id| self.prompt_program(id)).transpose()?;
        let inspirations = self.prompt_inspirations(handout, [parent_id, second_id])?;
        let notes = match handout.notes.as_slice() {
            [] => NONE.to_string(),
            notes => {
                notes.iter().map(|n| format!("- {}: {}", note_kind(n.kind), n.text)).collect::<Vec<_>>().join("\n")
            }
        };
        let text = or_none;
        let optional = |value: &Option<String>| value.as_deref().map_or_else(|| NONE.to_string(), text);
        let program_field = |program: &Option<PromptProgram>, field: fn(&PromptProgram) -> String| {
            program.as_ref().map_or_else(|| NONE.to_string(), field)
        };
        let values: [(&str, String); PLACEHOLDERS.len()] = [
            ("goal", text(&parts.goal)),
            ("target_name", text(&parts.target_name)),
            ("candidate_path", text(&parts.candidate_path)),
            ("context", text(&parts.context)),
            ("operator", handout.operator.map_or(NONE, Operator::name).to_string()),
            // An island without a name is called by its number.
            (
                "island_name",
                handout
                    .island_name
                    .clone()
                    .or(handout.island.map(|i| format!("island {i}")))
                    .map_or_else(|| NONE.to_string(), |n| or_none(&n)),
            ),
            ("island_description", optional(&handout.island_description)),
            ("donor_island_name", optional(&handout.donor_island_name)),
            ("parent_metrics", program_field(&parent, PromptProgram::scored)),
            ("parent_changes", program_field(&parent, |p| or_none(&p.changes))),
            ("parent_code", program_field(&parent, |p| p.code.clone())),
            ("second_parent_metrics", program_field(&second, PromptProgram::scored)),
            ("second_parent_changes", program_field(&second, |p| or_none(&p.changes))),
            ("second_parent_code", program_field(&second, |p| p.code.clone())),
            ("inspirations", inspirations),
            ("notes", notes),
        ];
        // The template's own note of its placeholders is for its editor, not the mutator.
        let mut out: String = template
            .lines()
            .filter(|line| !line.trim_start().starts_with("<!-- placeholders:"))
            .map(|line| format!("{line}\n"))
            .collect();
        check_prompt_template(template)?;
        // One pass over the template: a value that happens to contain `{{…}}` (code often does)
        // is never filled again.
        let mut filled = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(start) = rest.find("{{") {
            filled.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let Some(end) = after.find("}}") else { break };
            let name = after[..end].trim();
            let value = values.iter().find(|(key, _)| *key == name).map(|(_, value)| value.as_str());
            filled.push_str(value.expect("check_prompt_template knows every placeholder"));
            rest = &after[end + 2..];
        }
        filled.push_str(rest);
        out = filled;
        Ok(out)
    }

    fn prompt_program(&self, id: &str) -> Result<PromptProgram> {
        let program = self.program(id).ok_or_else(|| {
            Error::input("parent", format!("`{id}` is not a program of this run (pruned since?); sample again"))
        })?;
        Ok(PromptProgram {
            metrics: serde_json::to_string(&program.metrics).unwrap_or_default(),
            fitness: self.fitness(id),
            changes: program.changes.to_string(),
            code: program.target_code.to_string(),
        })
    }

    /// The handout's inspirations, best first; a plan item written before items carried them
    /// gets what `plan` gives an item today (`plan_inspirations`).
    fn prompt_inspirations(&self, handout: &Handout, parents: [Option<&str>; 2]) -> Result<String> {
        let mut ids: Vec<String> = handout.inspirations.iter().map(|p| p.id.clone()).collect();
        if ids.is_empty()
            && handout.parent.is_none()
            && let Some(island) = handout.island
        {
            let slots = parents.map(|id| id.and_then(|id| self.population.slot_of(id)));
            ids = self
                .plan_inspirations(island, slots)
                .into_iter()
                .map(|slot| self.population.get(slot).program.id.to_string())
                .collect();
        }
        let mut programs: Vec<(String, PromptProgram)> =
            ids.into_iter().map(|id| self.prompt_program(&id).map(|p| (id, p))).collect::<Result<_>>()?;
        programs.sort_by(|(a_id, a), (b_id, b)| rank(b.fitness, a.fitness).then_with(|| a_id.cmp(b_id)));
        Ok(match programs.as_slice() {
            [] => NONE.to_string(),
            programs => programs
                .iter()
                .map(|(_, p)| format!("- {} — {}", p.scored(), p.changes.lines().next().unwrap_or(NONE)))
                .collect::<Vec<_>>()
                .join("\n"),
        })
    }
}

/// A value as the prompt shows it: `none` when it is empty.
fn or_none(value: &str) -> String {
    if value.trim().is_empty() { NONE.to_string() } else { value.to_string() }
}

fn note_kind(kind: NoteKind) -> &'static str {
    match kind {
        NoteKind::Lesson => "lesson",
        NoteKind::Failure => "failure",
        NoteKind::Idea => "idea",
    }
}

/// Higher fitness first; a program without one (an error) last.
fn rank(a: Option<f64>, b: Option<f64>) -> std::cmp::Ordering {
    a.unwrap_or(f64::NEG_INFINITY).total_cmp(&b.unwrap_or(f64::NEG_INFINITY))
}

/// A program as a prompt shows it.
struct PromptProgram {
    metrics: String,
    fitness: Option<f64>,
    changes: String,
    code: String,
}

impl PromptProgram {
    /// `{"score":0.81} (fitness 0.81)`.
    fn scored(&self) -> String {
        match self.fitness {
            Some(fitness) => format!("{} (fitness {})", self.metrics, six_places(fitness)),
            None => format!("{} (no fitness: it failed)", self.metrics),
        }
    }
}
