//! `evodb import openevolve|shinka <source> <db>`: a run made by another tool, as an evodb run,
//! so its users can open it in the playground (and carry it on with evodb).
//!
//! Each reader turns its tool's files into [`SourceRun`]: programs with their parents, islands,
//! metrics and times. The import then replays them through the component's own `add`, in
//! iteration order with every program after its parent ([`lineage_order`]), so the run's events
//! are the ones evodb would have written; all of it is one create-and-save: nothing is stored
//! unless every program was added.
//!
//! The run's config makes the replay faithful: each island is large enough for what the source
//! keeps on it (nothing is pruned), and migration is due only after the replay (the source's own
//! migrations are programs of their own, and are imported as such).
//!
//! A run may come from anyone: the readers read it as every command reads its files (regular
//! files only, no links below the named path, within the time budget and the memory cap:
//! [`source`]), and every program is checked against evodb's limits before anything is stored,
//! each refusal naming the file or row it came from.

#[cfg(test)]
mod fuzz;
mod json;
mod openevolve;
mod shinka;
mod source;

use evodb_core::{AddRequest, Metrics, Operator, Status};
use serde_json::json;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use clap::ArgMatches;

use crate::context::Context;
use crate::failure::Failure;
use crate::matches::{required, subcommand};
use crate::reply::Reply;
use crate::session::Engine;

/// `evodb import <tool> <source> <dbPath>`.
#[derive(Debug)]
pub struct Args {
    pub source: Tool,
    pub from: PathBuf,
    pub db: PathBuf,
}

/// The tools whose runs evodb reads.
#[derive(Debug, Clone, Copy)]
pub enum Tool {
    OpenEvolve,
    Shinka,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        let (source, m) = match subcommand(m) {
            ("openevolve", m) => (Tool::OpenEvolve, m),
            ("shinka", m) => (Tool::Shinka, m),
            (other, _) => unreachable!("the table's command `import {other}` has no arguments here"),
        };
        Args { source, from: required(m, "source"), db: required(m, "dbPath") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        import(ctx.engine()?, self)
    }
}

/// A run as another tool stored it, read into evodb's terms.
#[derive(Debug, Default)]
struct SourceRun {
    /// The tool's name, for messages and code paths.
    tool: &'static str,
    islands: u32,
    programs: Vec<SourceProgram>,
    /// The source's fitness rule as an evodb `fitness` config.
    fitness: serde_json::Value,
    /// The source's migration interval (in generations), kept for after the replay.
    migration_interval: u64,
    archive_size: u32,
    /// What the reader could not carry over, for the user.
    warnings: Vec<String>,
}

#[derive(Debug)]
struct SourceProgram {
    id: String,
    /// Where the program was read (its file, or its row), for messages.
    origin: String,
    parent_id: Option<String>,
    code: String,
    /// The file extension for the program's code path (`py`, `rs`, …).
    extension: &'static str,
    metrics: Vec<(String, f64)>,
    island: u32,
    /// The source's iteration (or generation) the program was found at: the replay's order.
    iteration: u64,
    /// Seconds since the epoch, as both tools store it.
    timestamp: f64,
    changes: String,
    status: Status,
    reason: Option<String>,
    operator: Option<Operator>,
}

fn import(engine: &Engine, args: Args) -> Result<Reply, Failure> {
    let reading = source::Reading::new(&engine.sandbox);
    let source = match args.source {
        Tool::OpenEvolve => openevolve::read(&args.from, &reading)?,
        Tool::Shinka => shinka::read(&args.from, &reading)?,
    };
    if source.programs.is_empty() {
        return Err(Failure::BadInput(format!(
            "`{}` holds no programs: nothing to import; check the path",
            args.from.display()
        )));
    }
    let (config, requests) = prepare(&source, &args.from).map_err(|message| {
        Failure::BadInput(format!("{} import refused: {message}; nothing was stored", source.tool))
    })?;

    let mut session = engine.open_to_create(&args.db)?;
    let db_shown = session.shown().to_string();
    let programs = &source.programs;
    let adds: Vec<(AddRequest, f64)> = requests.iter().map(|(request, clock, _)| (request.clone(), *clock)).collect();
    let outcome = session.init_with_adds(&config.to_string(), 0, &adds, |at, message| {
        let program = &programs[requests[at].2];
        format!("{}: program `{}`: {message}", program.origin, shown(&program.id))
    });
    let last = outcome.map_err(|failure| match failure {
        Failure::BadInput(message) => {
            Failure::BadInput(format!("{} import refused: {message}; nothing was stored at {db_shown}", source.tool))
        }
        other => other,
    })?;

    let ids: HashSet<&str> = source.programs.iter().map(|p| p.id.as_str()).collect();
    let unknown_parents =
        source.programs.iter().filter(|p| p.parent_id.as_deref().is_some_and(|parent| !ids.contains(parent))).count();
    let mut warnings = source.warnings;
    if unknown_parents > 0 {
        warnings.push(format!(
            "{unknown_parents} programs name a parent that {} no longer holds (pruned); they keep the parent's id, \
             start at generation 0, and the playground shows the parent as a ghost",
            source.tool
        ));
    }
    let best = last.and_then(|outcome| outcome.best_program_id);
    let printed = json!({
        "imported": requests.len(),
        "tool": source.tool,
        "from": args.from.display().to_string(),
        "to": db_shown.trim_matches('`'),
        "islands": source.islands,
        "bestProgramId": best,
    });
    Ok(Reply { stdout: printed.to_string(), warnings, failure: None })
}

/// Each program's add with the clock it is replayed at (and its index), in replay order.
type Replay = Vec<(AddRequest, f64, usize)>;

/// What the replay needs, checked before anything is stored: the run's config (one evodb can
/// hold) and every program's add. A refusal names the program and where it was read.
fn prepare(source: &SourceRun, from: &Path) -> Result<(serde_json::Value, Replay), String> {
    check_programs(&source.programs)?;
    let config = run_config(source);
    evodb_core::Config::from_json(&config.to_string())
        .map_err(|e| format!("`{}` does not fit in an evodb run ({e})", from.display()))?;
    let order = lineage_order(&source.programs);
    let mut requests = Vec::with_capacity(order.len());
    // evodb's clock never runs backwards; the sources' may (a migrant keeps its time).
    let mut clock = f64::MIN;
    for index in order {
        let program = &source.programs[index];
        clock = clock.max(program.timestamp);
        requests.push((request(source.tool, program)?, clock, index));
    }
    Ok((config, requests))
}

/// What evodb needs of every program before the replay starts, in the source's terms (the
/// engine's own messages speak to someone calling `add`): an id, used once; code.
fn check_programs(programs: &[SourceProgram]) -> Result<(), String> {
    let mut seen: HashMap<&str, &str> = HashMap::with_capacity(programs.len());
    for program in programs {
        if program.id.trim().is_empty() {
            return Err(format!(
                "{} has an empty `id`; evodb needs one to place the program in its family tree",
                program.origin
            ));
        }
        if program.code.trim().is_empty() {
            return Err(format!(
                "{}: program `{}` has no code (its `code` is empty); evodb keeps programs with their code",
                program.origin,
                shown(&program.id)
            ));
        }
        if let Some(first) = seen.insert(&program.id, &program.origin) {
            return Err(format!(
                "program id `{}` appears twice, in {first} and in {}",
                shown(&program.id),
                program.origin
            ));
        }
    }
    Ok(())
}

/// The evodb config the replay runs under (see the module's docs).
fn run_config(source: &SourceRun) -> serde_json::Value {
    let mut per_island = vec![0u32; source.islands as usize];
    for program in source.programs.iter().filter(|p| p.status != Status::Error) {
        per_island[program.island as usize] += 1;
    }
    let largest = per_island.into_iter().max().unwrap_or(1).max(1);
    json!({
        "numIslands": source.islands,
        "maxIslandSize": largest,
        "migrationInterval": source.programs.len() as u64 + source.migration_interval.max(1),
        "archiveSize": source.archive_size,
        "fitness": source.fitness,
    })
}

/// The program's `add`; its metrics are held to evodb's limits (at most 1,000, names of at most
/// 256 bytes), the refusal naming where the program was read.
fn request(tool: &str, program: &SourceProgram) -> Result<AddRequest, String> {
    let metrics = Metrics::new(program.metrics.iter().map(|(name, value)| (name.as_str(), *value))).map_err(|e| {
        let id = shown(&program.id);
        match e {
            // The field is the source's metric name (cut by the engine): quoted as the import quotes.
            evodb_core::Error::InvalidInput { field, problem } => {
                format!("{}: program `{id}`: `{}` {problem}", program.origin, shown(&field))
            }
            other => format!("{}: program `{id}`: {}", program.origin, other.to_string().replace('`', "'")),
        }
    })?;
    Ok(AddRequest {
        id: Some(program.id.clone()),
        code_path: format!("{tool}/{}.{}", file_name(&program.id), program.extension),
        target_code: program.code.clone(),
        parent_id: program.parent_id.clone().unwrap_or_else(|| evodb_core::ROOT_PARENT_ID.to_string()),
        metrics,
        changes: program.changes.clone(),
        island: Some(program.island),
        status: program.status,
        reason: program.reason.clone(),
        operator: program.operator,
        ..AddRequest::seed("", "", Metrics::default())
    })
}

/// Text of the source (an id, a metric name) as a message quotes it between backticks: a
/// backtick of its own shown as `'`, line breaks as spaces, and no more than 60 characters.
fn shown(text: &str) -> String {
    let mut shown: String = text
        .chars()
        .take(60)
        .map(|c| {
            if c == '`' {
                '\''
            } else if c.is_control() {
                ' '
            } else {
                c
            }
        })
        .collect();
    if text.chars().nth(60).is_some() {
        shown.push('…');
    }
    shown
}

/// A program id as one plain file name for its `codePath` (an id is the source's text: a `/`
/// or a leading `.` in it must not make the path point anywhere else).
fn file_name(id: &str) -> String {
    let name: String =
        id.chars().map(|c| if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' }).collect();
    match name.starts_with('.') {
        true => format!("_{name}"),
        false => name,
    }
}

/// `lineage_order`: the programs by (iteration, time, id), except that a program never comes
/// before its parent (a source may record a migrant copy with iteration 0). Programs caught in
/// a parent cycle, which no tool writes, come last in the same order.
fn lineage_order(programs: &[SourceProgram]) -> Vec<usize> {
    let mut by_key: Vec<usize> = (0..programs.len()).collect();
    by_key.sort_by(|&a, &b| {
        let (a, b) = (&programs[a], &programs[b]);
        a.iteration.cmp(&b.iteration).then(a.timestamp.total_cmp(&b.timestamp)).then_with(|| a.id.cmp(&b.id))
    });
    let rank: HashMap<&str, usize> =
        by_key.iter().enumerate().map(|(rank, &i)| (programs[i].id.as_str(), rank)).collect();
    let mut children: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut ready = BinaryHeap::new();
    for (rank_of_program, &index) in by_key.iter().enumerate() {
        match programs[index].parent_id.as_deref().and_then(|parent| rank.get(parent)) {
            Some(&parent) if parent != rank_of_program => children.entry(parent).or_default().push(rank_of_program),
            _ => ready.push(Reverse(rank_of_program)),
        }
    }
    let mut placed = vec![false; programs.len()];
    let mut order = Vec::with_capacity(programs.len());
    while let Some(Reverse(next)) = ready.pop() {
        placed[next] = true;
        order.push(by_key[next]);
        for &child in children.get(&next).into_iter().flatten() {
            ready.push(Reverse(child));
        }
    }
    order.extend(by_key.iter().enumerate().filter(|(rank, _)| !placed[*rank]).map(|(_, &index)| index));
    order
}

/// The extension a language's code is saved under.
fn extension(language: &str) -> &'static str {
    match language.to_ascii_lowercase().as_str() {
        "python" | "py" => "py",
        "rust" | "rs" => "rs",
        "javascript" | "js" => "js",
        "typescript" | "ts" => "ts",
        "c" => "c",
        "cpp" | "c++" | "cuda" => "cpp",
        "go" => "go",
        "java" => "java",
        "julia" => "jl",
        "r" => "r",
        _ => "txt",
    }
}

/// A source's island index when it is one of `islands`, else island 0.
fn island_within(island: Option<i64>, islands: u32) -> u32 {
    island.and_then(|i| u32::try_from(i).ok()).filter(|&i| i < islands).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(id: &str, parent: Option<&str>, iteration: u64) -> SourceProgram {
        SourceProgram {
            id: id.into(),
            origin: String::new(),
            parent_id: parent.map(String::from),
            code: String::new(),
            extension: "py",
            metrics: vec![],
            island: 0,
            iteration,
            timestamp: 0.0,
            changes: String::new(),
            status: Status::Accepted,
            reason: None,
            operator: None,
        }
    }

    fn ids(programs: &[SourceProgram]) -> Vec<&str> {
        lineage_order(programs).into_iter().map(|i| programs[i].id.as_str()).collect()
    }

    #[test]
    fn lineage_order_puts_a_migrant_after_its_parent() {
        let programs = [
            program("a", None, 0),
            program("b", Some("a"), 1),
            program("copy", Some("b"), 0),
            program("c", Some("a"), 2),
        ];
        assert_eq!(ids(&programs), ["a", "b", "copy", "c"]);
    }

    #[test]
    fn a_code_path_stays_one_file_name_whatever_the_id() {
        assert_eq!(file_name("../../etc/passwd"), "_.._.._etc_passwd");
        assert_eq!(file_name("gen-5_a.b"), "gen-5_a.b");
        assert_eq!(file_name(".hidden"), "_.hidden");
    }

    #[test]
    fn lineage_order_keeps_unknown_parents_and_cycles() {
        let programs = [program("x", Some("y"), 2), program("y", Some("x"), 1), program("z", Some("gone"), 3)];
        assert_eq!(ids(&programs), ["z", "y", "x"]);
    }
}
