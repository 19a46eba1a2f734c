//! The core's layers: every `crate::…` path in `core/src` points to the module's own layer or
//! one below it, so no two modules import each other. A new module must be placed in `LAYERS`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Lowest first. Modules of one layer may use each other only where listed in `WITHIN`.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "foundation",
        &["error", "json_text", "metrics", "counters", "rng", "ranking", "live_order", "pareto", "instance_front"],
    ),
    ("api", &["api"]),
    ("config", &["config"]),
    ("command-line flags", &["flags"]),
    ("state", &["database"]),
    ("rules", &["rules"]),
    ("reports and format", &["reports", "format"]),
    ("orchestration", &["operations"]),
    ("drivers", &["simulation", "replay"]),
];

/// Uses within one layer, each a one-way edge.
const WITHIN: &[(&str, &str)] = &[
    ("counters", "error"),
    ("rng", "error"),
    ("metrics", "error"),
    ("ranking", "live_order"),
    ("pareto", "ranking"),
    ("instance_front", "metrics"),
];

fn layer_of(module: &str) -> usize {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
        .unwrap_or_else(|| panic!("module `{module}` is in no layer: add it to LAYERS in core/tests/layers.rs"))
}

/// Top-level module → the top-level modules its non-test code names through `crate::`.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph = BTreeMap::<String, BTreeSet<String>>::new();
    let mut files = vec![src.clone()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let relative = path.strip_prefix(&src).unwrap();
        if relative == Path::new("lib.rs") {
            continue;
        }
        let first = relative.components().next().unwrap().as_os_str().to_str().unwrap();
        let module = first.trim_end_matches(".rs").to_string();
        let text = fs::read_to_string(&path).unwrap();
        // Unit tests may reach anywhere; they are not part of the layering.
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap()
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let uses = graph.entry(module.clone()).or_default();
        for (i, _) in code.match_indices("crate::") {
            let name: String =
                code[i + "crate::".len()..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if name != module && !name.is_empty() && name.chars().next().unwrap().is_lowercase() {
                uses.insert(name);
            }
        }
        // `use crate::{a::X, b::Y}` names several modules at once.
        for (i, _) in code.match_indices("crate::{") {
            let list = &code[i + "crate::{".len()..code[i..].find('}').map_or(code.len(), |j| i + j)];
            for part in list.split(',') {
                if let Some((name, _)) = part.trim().split_once("::")
                    && name != module
                {
                    uses.insert(name.to_string());
                }
            }
        }
    }
    graph
}

#[test]
fn every_import_points_to_the_same_layer_or_below() {
    let graph = imports();
    assert!(graph.len() >= 15, "found only {} modules in core/src", graph.len());
    let mut violations = Vec::new();
    for (module, uses) in &graph {
        for used in uses {
            if !graph.contains_key(used) {
                continue; // an item of lib.rs or an external crate path
            }
            let (from, to) = (layer_of(module), layer_of(used));
            let allowed = to < from || (to == from && WITHIN.contains(&(module.as_str(), used.as_str())));
            if !allowed {
                violations.push(format!("`{module}` ({}) uses `{used}` ({})", LAYERS[from].0, LAYERS[to].0));
            }
        }
    }
    assert!(violations.is_empty(), "imports against the layering:\n{}", violations.join("\n"));
}

#[test]
fn the_check_sees_imports() {
    let graph = imports();
    // Known edges, so a parser that found nothing cannot pass the test above.
    assert!(graph["operations"].contains("database"), "{:?}", graph["operations"]);
    assert!(graph["rules"].contains("api"), "{:?}", graph["rules"]);
    assert!(graph["format"].contains("config"), "{:?}", graph["format"]);
}
