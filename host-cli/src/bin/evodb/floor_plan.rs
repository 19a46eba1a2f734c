//! The binary's floor plan, checked: every `crate::…` path in `src/bin/evodb` points to its own
//! floor's listed neighbours or a floor below, so no two modules import each other and nothing
//! runs back up. A command module uses no other command. A new module must be placed in
//! `FLOORS`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Lowest first; `commands::*` stands for every command module.
const FLOORS: &[(&str, &[&str])] = &[
    ("foundation", &["failure", "matches", "parser", "input", "location", "reply", "serve_protocol"]),
    ("engine", &["session", "operations", "context"]),
    ("shared by commands", &["candidate", "config_flags", "git_mode", "install", "idea_runs"]),
    ("commands", &["commands::*"]),
    ("command line", &["cli"]),
    ("answered by evodb serve", &["forward"]),
    ("entry", &["main"]),
];

/// Uses within one floor, each a one-way edge.
const WITHIN: &[(&str, &str)] = &[
    ("input", "failure"),
    ("location", "failure"),
    ("reply", "failure"),
    ("context", "session"),
    ("operations", "session"),
    ("candidate", "input"),
];

fn floor_of(module: &str) -> usize {
    let key = if module.starts_with("commands::") { "commands::*" } else { module };
    FLOORS
        .iter()
        .position(|(_, modules)| modules.contains(&key))
        .unwrap_or_else(|| panic!("module `{module}` is on no floor: add it to FLOORS in src/bin/evodb/floor_plan.rs"))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin/evodb")
}

/// The module a file belongs to: `commands::<name>` under `commands/`, else its top-level name.
fn module_of(relative: &Path) -> String {
    let parts: Vec<&str> = relative.iter().map(|p| p.to_str().unwrap().trim_end_matches(".rs")).collect();
    match parts.as_slice() {
        ["commands", "mod"] => "commands".into(),
        ["commands", name, ..] => format!("commands::{name}"),
        [first, ..] => (*first).to_string(),
        [] => unreachable!(),
    }
}

/// The module a `crate::` path names, from the text after `crate::`.
fn named(path: &str) -> Option<String> {
    let word = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let first = word(path);
    if first.is_empty() || !first.chars().next().unwrap().is_lowercase() {
        return None;
    }
    if first == "commands" {
        let rest = path.strip_prefix("commands::")?;
        if rest.starts_with('{') {
            return Some("commands::*".into());
        }
        return Some(format!("commands::{}", word(rest)));
    }
    Some(first)
}

/// Module → the modules its non-test code names through `crate::`.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::<String, BTreeSet<String>>::new();
    let mut files = vec![root()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let relative = path.strip_prefix(root()).unwrap().to_path_buf();
        let module = module_of(&relative);
        if module == "floor_plan" || relative.starts_with("parser/tests.rs") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        // Unit tests may reach anywhere; they are not part of the floor plan.
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
            let rest = &code[i + "crate::".len()..];
            if let Some(rest) = rest.strip_prefix('{') {
                let list = &rest[..rest.find('}').unwrap_or(rest.len())];
                uses.extend(list.split(',').filter_map(|part| named(part.trim())));
            } else if let Some(name) = named(rest) {
                uses.insert(name);
            }
        }
        // `use crate::commands::{add, apply, …}`: each command by name.
        if let Some(i) = code.find("crate::commands::{") {
            let rest = &code[i + "crate::commands::{".len()..];
            let list = &rest[..rest.find('}').unwrap()];
            uses.extend(list.split(',').map(|name| format!("commands::{}", name.trim())).filter(|n| n != "commands::"));
        }
        uses.remove(&module);
        uses.remove("commands::*");
    }
    graph
}

#[test]
fn every_import_points_to_its_floor_or_below() {
    let graph = imports();
    assert!(graph.len() >= 40, "found only {} modules in src/bin/evodb", graph.len());
    let mut violations = Vec::new();
    for (module, uses) in &graph {
        for used in uses.iter().filter(|used| graph.contains_key(*used)) {
            let (from, to) = (floor_of(module), floor_of(used));
            let allowed = to < from || (to == from && WITHIN.contains(&(module.as_str(), used.as_str())));
            if !allowed {
                violations.push(format!("`{module}` ({}) uses `{used}` ({})", FLOORS[from].0, FLOORS[to].0));
            }
        }
    }
    assert!(violations.is_empty(), "imports against the floor plan:\n{}", violations.join("\n"));
}

#[test]
fn the_check_sees_imports() {
    let graph = imports();
    // Known edges, so a parser that found nothing cannot pass the test above.
    assert!(graph["cli"].contains("commands::add"), "{:?}", graph["cli"]);
    assert!(graph["commands::add"].contains("candidate"), "{:?}", graph["commands::add"]);
    assert!(graph["forward"].contains("cli"), "{:?}", graph["forward"]);
    assert!(graph["commands::apply"].contains("reply"), "{:?}", graph["commands::apply"]);
}
