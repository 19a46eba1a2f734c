//! The catalogue: every tool the server offers — evodb's own (`tools`, the lease tools, then the
//! idea runs' `idea_tools`) first, then evo-anything's (`evo`) — as `tools/list` shows them and
//! `tools/call` finds them.

use rmcp::model::{JsonObject, Tool as McpTool, ToolAnnotations};

use super::tools::{self, Entry, ToolResult};
use super::{Run, evo, idea_tools, lease_tools};

/// Every tool, evodb's first.
pub fn table() -> Vec<Entry> {
    let mut table = tools::own();
    table.extend(lease_tools::table());
    table.extend(idea_tools::table());
    table.extend(evo::table());
    table
}

pub fn list() -> Vec<McpTool> {
    table()
        .into_iter()
        .map(|e| {
            let mut annotations = ToolAnnotations::new();
            annotations.read_only_hint = Some(e.read_only);
            McpTool::new(e.name, e.description, (e.schema)()).annotate(annotations)
        })
        .collect()
}

/// Runs the tool `name` with `arguments`; every refusal names the tool and the argument.
pub fn call(run: &Run, name: &str, arguments: JsonObject) -> ToolResult {
    let table = table();
    let Some(entry) = table.iter().find(|e| e.name == name) else {
        let names: Vec<&str> = table.iter().map(|e| e.name).collect();
        return Err(format!("no tool `{name}`; the tools are {}", names.join(", ")));
    };
    tools::call_entry(entry, run, arguments)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    #[test]
    fn every_schema_is_an_object_and_every_name_is_unique() {
        let table = table();
        let mut names: Vec<&str> = table.iter().map(|e| e.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), table.len());
        for entry in &table {
            let schema = (entry.schema)();
            assert_eq!(schema.get("type"), Some(&Value::from("object")), "{}", entry.name);
        }
    }
}
