//! docs/mcp.md's tool reference, written from the tools' types (the schemas `tools/list` serves).

use serde_json::Value;

use super::catalogue::table;

/// The reference of every tool: its description, then each argument with its type, whether it
/// is required, and its description — all read from the tool's input schema.
pub fn reference_markdown() -> String {
    let mut out = String::new();
    for entry in table() {
        let schema = (entry.schema)();
        out.push_str(&format!("### `{}`\n\n{}\n\n", entry.name, entry.description));
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|l| l.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let properties = schema.get("properties").and_then(Value::as_object);
        match properties.filter(|p| !p.is_empty()) {
            None => out.push_str("No arguments.\n\n"),
            Some(properties) => {
                out.push_str("| argument | type | required | what |\n|---|---|---|---|\n");
                for (name, property) in properties {
                    let kind = type_of(property, &schema);
                    let need = if required.contains(&name.as_str()) { "yes" } else { "" };
                    let what = property.get("description").and_then(Value::as_str).unwrap_or("").replace('\n', " ");
                    out.push_str(&format!("| `{name}` | {kind} | {need} | {} |\n", what.replace('|', "\\|")));
                }
                out.push('\n');
            }
        }
    }
    out
}

/// A property's type in a few words: `string`, `integer`, `array of integer`, `one of a, b`.
fn type_of(property: &Value, schema: &serde_json::Map<String, Value>) -> String {
    if let Some(reference) = property.get("$ref").and_then(Value::as_str) {
        let name = reference.rsplit('/').next().unwrap_or(reference);
        let defs = schema.get("$defs").and_then(|d| d.get(name));
        return defs.map_or_else(|| name.to_string(), |d| type_of(d, schema));
    }
    if let Some(values) = property.get("enum").and_then(Value::as_array) {
        let names: Vec<String> = values.iter().map(|v| format!("`{}`", v.as_str().unwrap_or_default())).collect();
        return format!("one of {}", names.join(", "));
    }
    if let Some(any) = property.get("anyOf").or_else(|| property.get("oneOf")).and_then(Value::as_array) {
        let kinds: Vec<String> =
            any.iter().filter(|v| v.get("type") != Some(&Value::from("null"))).map(|v| type_of(v, schema)).collect();
        return kinds.join(" or ");
    }
    match property.get("type") {
        Some(Value::String(kind)) if kind == "array" => {
            format!("array of {}", property.get("items").map_or_else(|| "any".into(), |i| type_of(i, schema)))
        }
        Some(Value::String(kind)) if kind == "object" => match property.get("additionalProperties") {
            Some(values @ Value::Object(_)) => format!("object of {}", type_of(values, schema)),
            _ => "object".into(),
        },
        Some(Value::String(kind)) => kind.clone(),
        Some(Value::Array(kinds)) => {
            kinds.iter().filter_map(Value::as_str).filter(|k| *k != "null").collect::<Vec<_>>().join(" or ")
        }
        _ => "any".into(),
    }
}

const BEGIN: &str = "<!-- The tool reference below is generated from the tools' Rust types: \
UPDATE_DOCS=1 cargo test -p evodb-host --bin evodb mcp::reference -->";
const END: &str = "<!-- end of the generated tool reference -->";

/// docs/mcp.md holds the reference generated from the same types `tools/list` serves; with
/// `UPDATE_DOCS=1` the test writes it.
#[test]
fn docs_mcp_md_holds_the_generated_reference() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/mcp.md");
    let text = std::fs::read_to_string(&path).expect("docs/mcp.md");
    let start = text.find(BEGIN).expect("docs/mcp.md has the reference's first marker");
    let end = text.find(END).expect("docs/mcp.md has the reference's last marker");
    let generated = format!("{BEGIN}\n\n{}{END}", reference_markdown());
    let updated = format!("{}{generated}{}", &text[..start], &text[end + END.len()..]);
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, updated).unwrap();
    } else {
        assert!(
            text == updated,
            "docs/mcp.md's tool reference is stale: run UPDATE_DOCS=1 cargo test -p evodb-host --bin evodb mcp::reference"
        );
    }
}
