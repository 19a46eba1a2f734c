//! One function per command: parse and check the flags first (a bad flag never touches the
//! database directory), then one component call, then the JSON to print.

use std::fs;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use evodb_core::{AddOutcome, AddRequest, BestProgram, Info, Lineage, Plan, Sample, Stats, StopVerdict};
use evodb_host::views::{self as output, core};
use evodb_host::{Access, DATABASE_FILE, population as wit};
use serde_json::{Map, Value, json};

use crate::args::{
    AddArgs, CandidateArgs, Command, DbArg, ExportArgs, ExportFormat, HistoryArgs, InitArgs, LineageArgs, PlanArgs,
    SeedArgs, TargetedArgs,
};
use crate::failure::Failure;
use crate::location::Location;
use crate::session::{Runtime, ok};

/// What a successful command prints: JSON on stdout, warnings on stderr.
pub struct Printed {
    pub stdout: String,
    pub warnings: Vec<String>,
}

impl From<String> for Printed {
    fn from(stdout: String) -> Printed {
        Printed { stdout, warnings: Vec::new() }
    }
}

pub fn run(runtime: &Runtime, command: Command) -> Result<Printed, Failure> {
    match command {
        Command::Create(DbArg { db }) => {
            // Writes only where there is no database yet: an existing file keeps its bytes (and
            // an existing directory is not even locked).
            let exists = matches!(runtime.locate(&db)?, Location::Directory(dir) if dir.join(DATABASE_FILE).exists());
            let mut session = runtime.open(&db, if exists { Access::Read } else { Access::Write })?;
            let info = match session.holds_database() {
                true => session.read(|m, st, db| ok(m.call_info(st, db)))?,
                false => session.write(|m, st, db| ok(m.call_info(st, db)))?,
            };
            Ok(output::json(&core::<_, Info>(info)).into())
        }
        Command::Info(DbArg { db }) => {
            let info = runtime.open(&db, Access::Read)?.read(|m, st, db| ok(m.call_info(st, db)))?;
            Ok(output::json(&core::<_, Info>(info)).into())
        }
        Command::Seed(args) => seed(runtime, args),
        Command::Add(args) => add(runtime, *args),
        Command::Sample(TargetedArgs { db: DbArg { db }, target }) => {
            let mut session = runtime.open(&db, Access::Write)?;
            let warnings = session.new_database_warning();
            let sample = match &target {
                None => session.write(|m, st, db| ok(m.call_sample(st, db)))?,
                Some(_) => session.write(|m, st, db| m.call_sample_for(st, db, target.as_deref()))?,
            };
            Ok(Printed { stdout: output::json(&core::<_, Sample>(sample)), warnings })
        }
        Command::Best(TargetedArgs { db: DbArg { db }, target }) => {
            let best = runtime.open(&db, Access::Read)?.read(|m, st, db| m.call_best_for(st, db, target.as_deref()))?;
            Ok(output::json(&core::<_, Option<BestProgram>>(best)).into())
        }
        Command::Init(args) => init(runtime, *args),
        Command::Stats(DbArg { db }) => {
            let stats = runtime.open(&db, Access::Read)?.read(|m, st, db| ok(m.call_stats(st, db)))?;
            Ok(output::json(&core::<_, Stats>(stats)).into())
        }
        Command::Validate(DbArg { db }) => validate(runtime, &db),
        Command::Export(ExportArgs { db: DbArg { db }, format }) => {
            let format: wit::ExportFormat = output::wit(match format {
                ExportFormat::Json => evodb_core::ExportFormat::Json,
                ExportFormat::Mermaid => evodb_core::ExportFormat::Mermaid,
                ExportFormat::Tree => evodb_core::ExportFormat::Tree,
                ExportFormat::Markdown => evodb_core::ExportFormat::Markdown,
            });
            let text = runtime.open(&db, Access::Read)?.read(|m, st, db| ok(m.call_export(st, db, format)))?;
            Ok(text.trim_end().to_string().into())
        }
        Command::Lineage(LineageArgs { db: DbArg { db }, id }) => {
            let lineage = runtime.open(&db, Access::Read)?.read(|m, st, db| ok(m.call_lineage(st, db, &id)))?;
            let lineage = lineage.ok_or_else(|| {
                Failure::NotFound(format!("no live program has id `{id}`; `evodb best` or `evodb export` list the ids"))
            })?;
            Ok(output::json(&core::<_, Lineage>(lineage)).into())
        }
        Command::History(args) => history(runtime, args),
        Command::Demo(args) => crate::demo::run(runtime, args),
        Command::Plan(PlanArgs { db: DbArg { db }, n, frozen, boosted }) => {
            let mut session = runtime.open(&db, Access::Write)?;
            let warnings = session.new_database_warning();
            let plan = session.write(|m, st, db| m.call_plan(st, db, n, &frozen, &boosted))?;
            Ok(Printed { stdout: output::json(&core::<_, Plan>(plan)), warnings })
        }
        Command::ShouldStop(TargetedArgs { db: DbArg { db }, target }) => {
            let verdict =
                runtime.open(&db, Access::Read)?.read(|m, st, db| m.call_should_stop_for(st, db, target.as_deref()))?;
            Ok(output::json(&core::<_, StopVerdict>(verdict)).into())
        }
        Command::Note(args) => crate::notes::note(runtime, args),
        Command::Notes(args) => crate::notes::notes(runtime, args),
        Command::Trial(args) => crate::trial::run(args),
        Command::Apply(args) => crate::apply::run(runtime, args),
        Command::GitTidy(args) => crate::git_mode::tidy(runtime, args),
        Command::View(args) => crate::view::run(args, &runtime.store_args, &runtime.sandbox),
        Command::Serve(args) => crate::serve::run(&runtime.sandbox, runtime.store_args.clone(), args),
        Command::Skill(args) => crate::skill::run(args),
        Command::Strategy(args) => crate::strategy::run(args),
        Command::Copy(args) => crate::copy::run(runtime, args),
        Command::Import(args) => crate::import::run(runtime, args),
    }
}

/// The database at `db` as `database.json`'s JSON value (read-only): for the host-side commands
/// that look at programs' fields (`apply`, git mode).
pub fn database_json(runtime: &Runtime, db: &Path) -> Result<Value, Failure> {
    let format = output::wit(evodb_core::ExportFormat::Json);
    let text = runtime.open(db, Access::Read)?.read(|m, st, db| ok(m.call_export(st, db, format)))?;
    serde_json::from_str(&text).map_err(|e| Failure::Internal(format!("the export is not JSON: {e}")))
}

/// Seconds since the epoch with millisecond precision, as the seed's `Date.now() / 1000`.
pub fn now() -> f64 {
    let millis = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis());
    millis as f64 / 1000.0
}

fn seed(runtime: &Runtime, SeedArgs { db, candidate, target_id }: SeedArgs) -> Result<Printed, Failure> {
    let mut fields = candidate_fields(candidate, false)?;
    fields.entry("changes").or_insert_with(|| json!("initial implementation"));
    fields.insert("parentId".into(), json!(evodb_core::ROOT_PARENT_ID));
    if let Some(target) = target_id {
        fields.insert("target".into(), json!(target));
    }
    let request = add_request(fields)?;
    let (mut warnings, outcome) = add_to(runtime, &db.db, &request)?;
    warnings.extend(outcome.warnings);
    Ok(Printed { stdout: output::json(&json!({"id": outcome.id, "metrics": outcome.metrics})), warnings })
}

fn add(runtime: &Runtime, args: AddArgs) -> Result<Printed, Failure> {
    let AddArgs { db, candidate: mut c, parent_id, id, island, status, reason, operator, plan_item, target_id, git } =
        args;
    let git = crate::git_mode::resolve(git)?;
    if let Some(git) = &git {
        git.fill_code(&mut c.code_path, &mut c.target_code, c.target_code_file.is_some());
    }
    // Every flag the seed requires, checked in the seed's order.
    let required = [
        ("codePath", c.code_path.is_some()),
        ("targetCode", c.target_code.is_some() || c.target_code_file.is_some()),
        ("parentId", parent_id.is_some()),
        ("metrics", c.metrics.is_some()),
        ("changes", c.changes.is_some() || c.changes_file.is_some()),
    ];
    if let Some((name, _)) = required.iter().find(|(_, present)| !present) {
        return Err(Failure::missing_flag(name));
    }
    let mut fields = candidate_fields(c, true)?;
    fields.insert("parentId".into(), json!(parent_id));
    if let Some(id) = id {
        fields.insert("id".into(), json!(id));
    }
    let extras = [
        ("island", island.map(|i| json!(i))),
        ("status", status.map(|s| json!(s))),
        ("reason", reason.map(|r| json!(r))),
        ("operator", operator.map(|o| json!(o))),
        ("planItem", plan_item.map(|p| json!(p))),
        ("target", target_id.map(|t| json!(t))),
    ];
    for (key, value) in extras {
        if let Some(value) = value {
            fields.insert(key.into(), value);
        }
    }
    let policy = match &git {
        Some(git) => git.apply(runtime, &db, &mut fields)?,
        None => None,
    };
    let request = add_request(fields)?;
    // The seed prints no warnings in its JSON; the CLI prints them on stderr.
    let (mut warnings, mut outcome) = add_to(runtime, &db.db, &request)?;
    warnings.extend(policy);
    warnings.append(&mut outcome.warnings);
    Ok(Printed { stdout: output::json(&outcome), warnings })
}

/// The candidate's flags as request fields, in the seed's order of required-flag checks.
fn candidate_fields(c: CandidateArgs, changes_required: bool) -> Result<Map<String, Value>, Failure> {
    let code_path = c.code_path.ok_or_else(|| Failure::missing_flag("codePath"))?;
    let target_code = match (c.target_code, c.target_code_file) {
        (Some(code), _) => code,
        (None, Some(path)) => read_text("--targetCodeFile", &path)?,
        (None, None) => return Err(Failure::missing_flag("targetCode")),
    };
    let metrics = c.metrics.ok_or_else(|| Failure::missing_flag("metrics"))?;
    let metrics: Value = serde_json::from_str(&metrics).map_err(|e| {
        Failure::BadInput(format!(
            "--metrics is not valid JSON ({e}); pass an object of finite numbers, e.g. --metrics '{{\"score\": 0.8}}'"
        ))
    })?;
    let changes = match (c.changes, c.changes_file) {
        (Some(changes), _) => Some(changes),
        (None, Some(path)) => Some(without_final_newline(read_text("--changesFile", &path)?)),
        (None, None) if changes_required => return Err(Failure::missing_flag("changes")),
        (None, None) => None,
    };
    let mut fields = Map::new();
    fields.insert("codePath".into(), json!(code_path));
    fields.insert("targetCode".into(), json!(target_code));
    fields.insert("metrics".into(), metrics);
    if let Some(changes) = changes {
        fields.insert("changes".into(), json!(changes));
    }
    Ok(fields)
}

/// Checks the request with the engine's own rules (errors name the field, e.g. `metrics.score`)
/// and translates it into the WIT record.
fn add_request(fields: Map<String, Value>) -> Result<wit::AddRequest, Failure> {
    let request = AddRequest::from_json(&Value::Object(fields).to_string()).map_err(bad_input)?;
    Ok(output::wit(request))
}

/// Adds `request` to the database at `db` and saves it; with the warning when it made a new one.
fn add_to(runtime: &Runtime, db: &Path, request: &wit::AddRequest) -> Result<(Vec<String>, AddOutcome), Failure> {
    let mut session = runtime.open(db, Access::Write)?;
    let warnings = session.new_database_warning();
    let outcome = session.write(|m, st, db| m.call_add(st, db, request, now()))?;
    Ok((warnings, core(outcome)))
}

pub fn bad_input(err: evodb_core::Error) -> Failure {
    Failure::BadInput(err.to_string())
}

/// A `*File` flag's text: `-` is standard input; anything but a regular file (a FIFO with no
/// writer would block forever, a directory or device is a mistake) is refused.
pub fn read_text(flag: &str, path: &Path) -> Result<String, Failure> {
    let bytes = if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::Io(format!("{flag}: cannot read standard input: {e}")))?;
        bytes
    } else {
        read_regular_file(flag, path)?
    };
    String::from_utf8(bytes).map_err(|e| {
        Failure::BadInput(format!("{flag}: `{}` is not UTF-8 text ({e}); save it as UTF-8", path.display()))
    })
}

fn read_regular_file(flag: &str, path: &Path) -> Result<Vec<u8>, Failure> {
    let io = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => {
            Failure::NotFound(format!("{flag}: `{}` does not exist; check the path", path.display()))
        }
        _ => Failure::Io(format!("{flag}: cannot read `{}`: {e}", path.display())),
    };
    // Looked at before opening (opening a socket fails, a FIFO blocks), and opened without
    // blocking in case it was swapped for a FIFO in between.
    let kind = fs::metadata(path).map_err(io)?.file_type();
    if !kind.is_file() {
        return Err(Failure::BadInput(format!(
            "{flag} `{}` is not a regular file ({}); pass a file, or - for standard input",
            path.display(),
            evodb_host::describe_file_type(kind)
        )));
    }
    let mut file =
        fs::OpenOptions::new().read(true).custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits()).open(path).map_err(io)?;
    if !file.metadata().map_err(io)?.is_file() {
        return Err(Failure::BadInput(format!("{flag} `{}` changed while it was read; try again", path.display())));
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io)?;
    Ok(bytes)
}

/// A description read from a file loses the one line ending an editor leaves at its end.
pub fn without_final_newline(mut text: String) -> String {
    if text.ends_with('\n') {
        text.pop();
        if text.ends_with('\r') {
            text.pop();
        }
    }
    text
}

fn init(runtime: &Runtime, args: InitArgs) -> Result<Printed, Failure> {
    let config = crate::config_flags::config_json(&args)?;
    // Checked before the directory is created, so a bad config leaves nothing behind.
    evodb_core::Config::from_json(&config).map_err(bad_input)?;
    evodb_core::Database::check_seed(args.seed).map_err(bad_input)?;
    let info = runtime.open(&args.db.db, Access::Write)?.init(&config, args.seed)?;
    Ok(output::json(&core::<_, Info>(info)).into())
}

/// Checks the stored file for every broken invariant (the engine's `validate`) and reports them
/// all as JSON; an invalid database exits 1 with its problems on stdout and the first on stderr.
fn validate(runtime: &Runtime, db: &Path) -> Result<Printed, Failure> {
    let missing = || {
        Failure::NotFound(format!(
            "no database at `{}` (no {DATABASE_FILE}): nothing to validate; check the path",
            crate::location::shown(db)
        ))
    };
    if matches!(runtime.locate(db)?, Location::Directory(dir) if !dir.join(DATABASE_FILE).exists()) {
        return Err(missing());
    }
    let mut session = runtime.open(db, Access::Read)?;
    if !session.holds_database() {
        return Err(missing());
    }
    let mut problems = session.validate()?;
    if let Some(dir) = session.directory() {
        problems.extend(evodb_host::history::problems(dir).map_err(Failure::Io)?);
    }
    if let Some(first) = problems.first() {
        println!("{}", output::json(&json!({"valid": false, "problems": problems})));
        let more =
            if problems.len() > 1 { format!(" (and {} more on stdout)", problems.len() - 1) } else { String::new() };
        return Err(Failure::BadInput(format!("{first}{more}")));
    }
    let info = session.read(|m, st, db| ok(m.call_info(st, db)))?;
    Ok(output::json(&json!({"valid": true, "programCount": info.program_count, "lastIteration": info.last_iteration}))
        .into())
}

fn history(runtime: &Runtime, HistoryArgs { db, tail }: HistoryArgs) -> Result<Printed, Failure> {
    let mut session = runtime.open(&db.db, Access::Read)?;
    if matches!(runtime.locate(&db.db)?, Location::Directory(_)) {
        // Read by the host from the end: `--tail 1` on a history of any size reads kilobytes.
        let cap = runtime.sandbox.memory_limit_mb.saturating_mul(1 << 20);
        return Ok(evodb_host::history::lines(session.directory(), tail, cap)?.into());
    }
    let text = session.history()?;
    let lines: Vec<&str> = text.lines().collect();
    let start = tail.map_or(0, |n| lines.len().saturating_sub(n));
    Ok(lines[start..].join("\n").into())
}
