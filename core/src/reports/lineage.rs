//! `lineage`: where a live program came from and what came of it, and the population's family
//! tree as Mermaid (evoidea's `tree`). Pruned programs are gone from the file, so a chain of
//! ancestors ends where a parent was pruned; the lineage says which id that was.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::api::Lineage;
use crate::api::ROOT_PARENT_ID;
use crate::database::Database;
use crate::database::Program;

impl Database {
    /// The lineage of a live program; `None` when no live program has that id.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics};
    /// let mut db = Database::new(Config::default(), 1).unwrap();
    /// let root = db.add(AddRequest::seed("/a.py", "v0", Metrics::default()), 0.0).unwrap().id;
    /// let mut child = AddRequest::seed("/a.py", "v1", Metrics::default());
    /// child.parent_id = root.to_string();
    /// let child = db.add(child, 1.0).unwrap().id;
    /// assert_eq!(db.lineage(&child).unwrap().ancestors, [root.to_string()]);
    /// assert_eq!(db.lineage(&root).unwrap().descendants, [child.to_string()]);
    /// ```
    pub fn lineage(&self, id: &str) -> Option<Lineage> {
        let program = self.program(id)?;
        let mut ancestors = Vec::new();
        let mut missing_ancestor = None;
        let mut seen = BTreeSet::from([id]);
        let mut parent = program.parent_id.as_str();
        while parent != ROOT_PARENT_ID {
            match self.program(parent) {
                // A repeated id means a cycle, which only a hand-edited file can hold: stop there.
                Some(p) if seen.insert(parent) => {
                    ancestors.push(parent.to_string());
                    parent = &p.parent_id;
                }
                Some(_) => break,
                None => {
                    missing_ancestor = Some(parent.to_string());
                    break;
                }
            }
        }
        let children = self.children();
        let mut descendants: Vec<&Program> = Vec::new();
        let mut queue = VecDeque::from([id]);
        while let Some(next) = queue.pop_front() {
            for child in children.get(next).into_iter().flatten() {
                if seen.insert(&child.id) {
                    descendants.push(child);
                    queue.push_back(&child.id);
                }
            }
        }
        descendants.sort_by(|a, b| (a.iteration_found, &a.id).cmp(&(b.iteration_found, &b.id)));
        let descendants = descendants.into_iter().map(|p| p.id.to_string()).collect();
        Some(Lineage { id: id.to_string(), ancestors, missing_ancestor, descendants })
    }

    /// The live population's family tree as a Mermaid flowchart: one node per program (short id,
    /// fitness, generation), an edge from each live parent to its child (dotted from a second
    /// parent), the best highlighted.
    pub fn lineage_mermaid(&self) -> String {
        let programs = self.oldest_first();
        let node: BTreeMap<&str, usize> = programs.iter().enumerate().map(|(i, p)| (&*p.id, i)).collect();
        let mut out = String::from("graph TD\n");
        for (i, p) in programs.iter().enumerate() {
            let short: String = p.id.chars().take(8).collect();
            let fitness = self.fitness(&p.id).unwrap_or(0.0);
            out.push_str(&format!("  n{i}[\"{short}<br/>fitness {fitness:.3} · gen {}\"]\n", p.generation));
        }
        for (i, p) in programs.iter().enumerate() {
            if let Some(parent) = node.get(p.parent_id.as_str()) {
                out.push_str(&format!("  n{parent} --> n{i}\n"));
            }
            // A second parent (crossover's, migration's donor) is a dotted edge.
            if let Some(second) = p.second_parent_id.as_deref().and_then(|id| node.get(id)) {
                out.push_str(&format!("  n{second} -.-> n{i}\n"));
            }
        }
        if let Some(best) = self.best_id().and_then(|id| node.get(id)) {
            out.push_str(&format!("  classDef best fill:#ffe082,stroke:#f57f17\n  class n{best} best\n"));
        }
        out
    }

    /// The live population's family tree as indented ASCII (evoidea's `tree`): each program
    /// under its live parent, roots (the initial program, orphans of pruned parents) first, oldest
    /// first at every level, the best marked `★`, a second parent named after the label `(+ id)`.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics};
    /// let mut db = Database::new(Config::default(), 1).unwrap();
    /// let root = db.add(AddRequest::seed("/a.py", "v0", Metrics::new([("s", 0.1)]).unwrap()), 0.0).unwrap().id;
    /// let mut child = AddRequest::seed("/a.py", "v1", Metrics::new([("s", 0.2)]).unwrap());
    /// child.parent_id = root.to_string();
    /// db.add(child, 1.0).unwrap();
    /// let tree = db.lineage_tree();
    /// assert!(tree.lines().nth(1).unwrap().starts_with("└── #2 "), "{tree}");
    /// ```
    pub fn lineage_tree(&self) -> String {
        let children = self.children();
        let live = |id: &str| self.program(id).is_some();
        let mut out = String::new();
        let roots: Vec<&Program> =
            self.oldest_first().into_iter().filter(|p| !live(&p.parent_id) || *p.parent_id == *p.id).collect();
        let mut stack: Vec<(&Program, String, bool, bool)> =
            roots.iter().rev().map(|&p| (p, String::new(), true, true)).collect();
        let mut seen = BTreeSet::new();
        while let Some((p, prefix, last, root)) = stack.pop() {
            if !seen.insert(&p.id) {
                continue;
            }
            let branch = if root {
                ""
            } else if last {
                "└── "
            } else {
                "├── "
            };
            out.push_str(&format!("{prefix}{branch}{}\n", self.tree_label(p)));
            let child_prefix =
                if root { prefix.clone() } else { format!("{prefix}{}", if last { "    " } else { "│   " }) };
            let kids = children.get(&*p.id).map(Vec::as_slice).unwrap_or_default();
            for (i, kid) in kids.iter().enumerate().rev() {
                stack.push((kid, child_prefix.clone(), i + 1 == kids.len(), false));
            }
        }
        out
    }

    fn tree_label(&self, p: &Program) -> String {
        let short: String = p.id.chars().take(8).collect();
        let fitness = self.fitness(&p.id).unwrap_or(0.0);
        let best = if self.best_id() == Some(&*p.id) { " ★" } else { "" };
        let island = self.config.island_label(p.island);
        // A second parent (crossover's, migration's donor) is named after the label.
        let second = match &p.second_parent_id {
            Some(id) => format!(" (+ {})", id.chars().take(8).collect::<String>()),
            None => String::new(),
        };
        format!("#{} {short} fitness {fitness:.3} gen {} {island}{best}{second}", p.seq(), p.generation)
    }

    fn oldest_first(&self) -> Vec<&Program> {
        let mut programs: Vec<&Program> = self.programs().collect();
        programs.sort_by(|a, b| (a.iteration_found, &a.id).cmp(&(b.iteration_found, &b.id)));
        programs
    }

    /// Live children of each live program, oldest first.
    fn children(&self) -> BTreeMap<&str, Vec<&Program>> {
        let mut children: BTreeMap<&str, Vec<&Program>> = BTreeMap::new();
        for p in self.oldest_first() {
            children.entry(p.parent_id.as_str()).or_default().push(p);
        }
        children
    }
}
