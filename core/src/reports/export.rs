//! The population as the AlphaEvolve strategy's `## 🧬 Population` markdown: one entry per live candidate,
//! newest first, the code folded in `<details>`.

use crate::api::Status;
use crate::config::cell_label;
use crate::database::Database;
use crate::database::Program;

impl Database {
    /// The `## 🧬 Population` section of the AlphaEvolve strategy's state file. Candidates are numbered by
    /// `seq`; a parent still in the population is shown by its number, a pruned one by its id.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics};
    /// let mut db = Database::new(Config::default(), 1).unwrap();
    /// db.add(AddRequest::seed("/a.py", "def f(): pass", Metrics::new([("s", 0.5)]).unwrap()), 0.0).unwrap();
    /// let md = db.population_markdown();
    /// assert!(md.starts_with("## 🧬 Population\n"));
    /// assert!(md.contains("### Candidate 1 · island 0 · fitness 0.5 · gen 0"));
    /// assert!(md.contains("```python\ndef f(): pass\n```"));
    /// ```
    pub fn population_markdown(&self) -> String {
        let mut out = String::from(
            "## 🧬 Population\n\n> 🤖 *Managed by the AlphaEvolve strategy. One entry per candidate that has been \
             evaluated (accepted or rejected). Newest first.*\n\n",
        );
        let mut programs: Vec<&Program> = self.programs().collect();
        programs.sort_by(|a, b| (b.seq(), &b.id).cmp(&(a.seq(), &a.id)));
        for p in programs {
            self.markdown_entry(p, &mut out);
        }
        out
    }

    fn markdown_entry(&self, p: &Program, out: &mut String) {
        let fitness = self.fitness(&p.id).map_or("null".to_string(), js_number);
        out.push_str(&format!(
            "### Candidate {} · {} · fitness {fitness} · gen {}\n",
            p.seq(),
            self.config.island_label(p.island),
            p.generation
        ));
        let operator = p.operator.map_or("—", |op| op.name());
        out.push_str(&format!("- **Operator**: {operator}\n"));
        let parent = match self.program(&p.parent_id) {
            Some(parent) => parent.seq().to_string(),
            None if p.parent_id == crate::api::ROOT_PARENT_ID => "none (seed program)".to_string(),
            None => format!("`{}` (no longer in the population)", p.parent_id),
        };
        out.push_str(&format!("- **Parent(s)**: {parent}\n"));
        let cell = p.cell.as_deref().map_or("—".to_string(), |cell| cell_label(&self.config.features, cell));
        out.push_str(&format!("- **Feature cell**: {cell}\n"));
        let approach = p.changes.lines().next().filter(|l| !l.trim().is_empty()).unwrap_or("—");
        out.push_str(&format!("- **Approach**: {approach}\n"));
        let status = match p.status {
            Status::Accepted => "✅ accepted",
            Status::Rejected => "❌ rejected",
            Status::Error => "⚠️ error",
        };
        out.push_str(&format!("- **Status**: {status}\n"));
        let mut notes = format!("id `{}`", p.id);
        if let Some(reason) = &p.reason {
            notes = format!("{reason} ({notes})");
        }
        if let Some(origin) = &p.migrated_from {
            notes.push_str(&format!("; a migration copy of `{origin}`"));
        }
        out.push_str(&format!("- **Notes**: {notes}\n\n"));
        // A fence longer than any backtick run in the code keeps the block closed.
        let longest = p.target_code.split(|c| c != '`').map(str::len).max().unwrap_or(0);
        let fence = "`".repeat(longest.max(2) + 1);
        let code = p.target_code.trim_end_matches('\n');
        out.push_str(&format!(
            "<details><summary>Code</summary>\n\n{fence}{}\n{code}\n{fence}\n\n</details>\n\n---\n\n",
            language_of(&p.code_path)
        ));
    }
}

/// A heading's number: shown to 12 significant digits (`json_text::shown`), no binary artefacts.
fn js_number(x: f64) -> String {
    crate::json_text::to_compact_js(&crate::json_text::shown(x))
}

/// The fence's language from the file extension (empty when unknown).
fn language_of(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, ext)| ext);
    match ext {
        "py" => "python",
        "js" | "mjs" | "cjs" => "javascript",
        "ts" => "typescript",
        "rs" => "rust",
        "go" => "go",
        "c" | "h" => "c",
        "cc" | "cpp" | "hpp" => "cpp",
        "java" => "java",
        "rb" => "ruby",
        "jl" => "julia",
        "sh" => "bash",
        _ => "",
    }
}
