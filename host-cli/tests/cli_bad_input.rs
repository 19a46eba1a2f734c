//! A catalogue of bad input: each case asserts its exit code, that the message names the
//! problem, and that the database directory is byte-identical afterwards.

use crate::cli;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use cli::{add_args, evodb, seed_args};
use serde_json::{Value, json};

struct Case {
    name: &'static str,
    /// Prepares the copy of the database (e.g. tears its file) before the command runs.
    setup: fn(&Path),
    /// `{db}` stands for the database directory, `{dir}` for a scratch directory beside it.
    args: Vec<String>,
    code: i32,
    message: &'static str,
}

fn case(name: &'static str, code: i32, message: &'static str, args: &[&str]) -> Case {
    Case { name, setup: |_| {}, args: args.iter().map(std::string::ToString::to_string).collect(), code, message }
}

fn with_setup(setup: fn(&Path), mut case: Case) -> Case {
    case.setup = setup;
    case
}

/// `add` with every seed flag valid except `flag`, which gets `value` (or is left out).
fn add_with(flag: &str, value: Option<&str>) -> Vec<String> {
    let mut args = add_args(Path::new("{db}"), "{parent}", 7, 0.5);
    let at = args.iter().position(|a| a == flag).expect("a seed flag");
    match value {
        Some(v) => args[at + 1] = v.to_string(),
        None => {
            args.drain(at..at + 2);
        }
    }
    args
}

fn add_case(name: &'static str, code: i32, message: &'static str, flag: &str, value: Option<&str>) -> Case {
    Case { name, setup: |_| {}, args: add_with(flag, value), code, message }
}

fn write_db(dir: &Path, bytes: &[u8]) {
    fs::write(dir.join("database.json"), bytes).unwrap();
}

fn append_db(dir: &Path, bytes: &[u8]) {
    let mut text = fs::read(dir.join("database.json")).unwrap();
    text.extend_from_slice(bytes);
    write_db(dir, &text);
}

/// Rewrites database.json after `edit` changed its JSON.
fn edit_db(dir: &Path, edit: impl FnOnce(&mut Value)) {
    let mut db: Value = serde_json::from_str(&fs::read_to_string(dir.join("database.json")).unwrap()).unwrap();
    edit(&mut db);
    write_db(dir, serde_json::to_string_pretty(&db).unwrap().as_bytes());
}

/// The id of the stored best program, for edits of one program.
fn best_id(db: &Value) -> String {
    db["bestProgramId"].as_str().unwrap().to_string()
}

fn fifo(path: &Path) {
    nix::unistd::mkfifo(path, nix::sys::stat::Mode::S_IRWXU).unwrap();
}

fn catalogue() -> Vec<Case> {
    let huge = || add_with("--targetCode", Some("x"));
    let mut cases = vec![
        // --- the database file -------------------------------------------------------------
        with_setup(
            |d| write_db(d, b"{\"numIslands\": 3, \"programs\": {"),
            case("torn database.json", 1, "corrupt database", &["info", "{db}"]),
        ),
        with_setup(|d| write_db(d, b"{not json"), case("malformed database.json", 1, "corrupt database", &["add_"])),
        with_setup(|d| write_db(d, b""), case("empty database.json", 1, "corrupt database", &["sample", "{db}"])),
        with_setup(
            |d| write_db(d, b"[1, 2, 3]"),
            case("database.json is an array", 1, "corrupt database", &["best", "{db}"]),
        ),
        with_setup(
            |d| write_db(d, b"{\"numIslands\": \"three\"}"),
            case("database.json with a wrong type", 1, "numIslands", &["info", "{db}"]),
        ),
        with_setup(
            |d| {
                let text = fs::read_to_string(d.join("database.json")).unwrap();
                let mut db: serde_json::Value = serde_json::from_str(&text).unwrap();
                let id = db["bestProgramId"].as_str().unwrap().to_string();
                db["programs"][&id]["id"] = serde_json::json!("ghost");
                write_db(d, serde_json::to_string_pretty(&db).unwrap().as_bytes());
            },
            case("database.json with a mislabelled program", 1, "ghost", &["stats", "{db}"]),
        ),
        with_setup(
            |d| write_db(d, b"{\"numIslands\": 3, \"x\": \"\xff\xfe\"}"),
            case("database.json not UTF-8", 1, "not UTF-8", &["info", "{db}"]),
        ),
        // --- metrics -------------------------------------------------------------------------
        add_case("NaN metric", 1, "--metrics is not valid JSON", "--metrics", Some("{\"score\": NaN}")),
        add_case("Infinity metric", 1, "--metrics is not valid JSON", "--metrics", Some("{\"score\": Infinity}")),
        add_case("-Infinity metric", 1, "--metrics is not valid JSON", "--metrics", Some("{\"score\": -Infinity}")),
        add_case("overflowing metric", 1, "out of range", "--metrics", Some("{\"score\": 1e999}")),
        add_case("metrics not an object", 1, "`metrics`", "--metrics", Some("[0.5, 0.7]")),
        add_case("metrics a number", 1, "`metrics`", "--metrics", Some("0.5")),
        add_case("metric a string", 1, "`metrics.score`", "--metrics", Some("{\"score\": \"high\"}")),
        add_case("metric null", 1, "metric `score` is null", "--metrics", Some("{\"score\": null}")),
        add_case("metrics truncated", 1, "--metrics is not valid JSON", "--metrics", Some("{\"score\": 0.")),
        // --- flags -----------------------------------------------------------------------------
        add_case("missing --codePath", 2, "Missing required flag: --codePath", "--codePath", None),
        add_case("missing --targetCode", 2, "Missing required flag: --targetCode", "--targetCode", None),
        add_case("missing --parentId", 2, "Missing required flag: --parentId", "--parentId", None),
        add_case("missing --metrics", 2, "Missing required flag: --metrics", "--metrics", None),
        add_case("missing --changes", 2, "Missing required flag: --changes", "--changes", None),
        case("unknown command", 2, "unrecognized subcommand 'frobnicate'", &["frobnicate", "{db}"]),
        case("unknown flag", 2, "unexpected argument '--colour'", &["info", "{db}", "--colour", "red"]),
        case("missing dbPath", 2, "<dbPath>", &["info"]),
        case("bad time budget", 2, "invalid value 'soon'", &["info", "{db}", "--timeBudgetMs", "soon"]),
        case("negative island", 2, "unexpected argument '-1'", &["add_", "--island", "-1"]),
        case("unknown export format", 2, "invalid value 'yaml'", &["export", "{db}", "--format", "yaml"]),
        // --- code and text -------------------------------------------------------------------
        add_case("empty code", 1, "`targetCode` is empty", "--targetCode", Some("")),
        add_case("blank code", 1, "`targetCode` is empty", "--targetCode", Some(" \n\t ")),
        add_case("empty code path", 1, "`codePath` is empty", "--codePath", Some("")),
        with_setup(
            |d| fs::write(d.join("../big.py"), "x".repeat(10 << 20)).unwrap(),
            Case {
                name: "10 MB code",
                code: 1,
                message: "over the 1048576-byte limit",
                args: {
                    let mut args = huge();
                    let at = args.iter().position(|a| a == "--targetCode").unwrap();
                    args[at] = "--targetCodeFile".into();
                    args[at + 1] = "{dir}/big.py".into();
                    args
                },
                setup: |_| {},
            },
        ),
        with_setup(
            |d| fs::write(d.join("../latin1.py"), b"caf\xe9 = 1\n").unwrap(),
            case("code file not UTF-8", 1, "is not UTF-8 text", &["add_", "--targetCodeFile", "{dir}/latin1.py"]),
        ),
        case("code file missing", 3, "does not exist", &["add_", "--targetCodeFile", "{dir}/nowhere.py"]),
        case("changes file missing", 3, "does not exist", &["add_", "--changesFile", "{dir}/nowhere.txt"]),
        case("code and code file", 2, "cannot be used with", &["add_", "--targetCodeFile", "{dir}/x.py"]),
        case("id in use", 1, "duplicate id", &["add_", "--id", "{parent}"]),
        case("island out of range", 1, "`island`", &["add_", "--island", "9"]),
        // --- init and config -------------------------------------------------------------------
        case("init over a database", 1, "already holds a database", &["init", "{db}"]),
        case("zero islands", 1, "`numIslands`", &["init", "{db}", "--numIslands", "0"]),
        case("islands not a number", 1, "`numIslands`", &["init", "{db}", "--islands", "three"]),
        case("absurd capacity", 1, "`maxIslandSize`", &["init", "{db}", "--capacity", "99999999999"]),
        case("migration rate over 1", 1, "`migrationRate`", &["init", "{db}", "--migrationRate", "1.5"]),
        case("unknown placement", 1, "`placement`", &["init", "{db}", "--placement", "nearest"]),
        case("seed beyond 2^53", 1, "`seed`", &["init", "{db}", "--seed", "9007199254740993"]),
        case("bad fitness rule", 2, "--fitness", &["init", "{db}", "--fitness", "median"]),
        case("bad direction", 2, "--direction", &["init", "{db}", "--direction", "latency"]),
        with_setup(
            |d| fs::write(d.join("../config.json"), "{\"maxIslandSize\": \"big\"}").unwrap(),
            case(
                "config file with a wrong type",
                1,
                "`maxIslandSize`",
                &["init", "{db}", "--config", "{dir}/config.json"],
            ),
        ),
        with_setup(
            |d| fs::write(d.join("../config.json"), "{\"numIsland\": 4}").unwrap(),
            case("config file with an unknown key", 1, "numIsland", &["init", "{db}", "--config", "{dir}/config.json"]),
        ),
        with_setup(
            |d| fs::write(d.join("../config.json"), "numIslands = 4").unwrap(),
            case("config file not JSON", 1, "is not valid JSON", &["init", "{db}", "--config", "{dir}/config.json"]),
        ),
        // --- the directory -----------------------------------------------------------------------
        with_setup(
            |d| fs::write(d.join("../plain-file"), "not a directory").unwrap(),
            case("database path is a file", 5, "is not a directory", &["add_", "--dbPath", "{dir}/plain-file"]),
        ),
        with_setup(
            |d| fs::write(d.join("../plain-file"), "not a directory").unwrap(),
            case("database path under a file", 5, "cannot create", &["add_", "--dbPath", "{dir}/plain-file/db"]),
        ),
    ];
    cases.extend(hostile_cases());
    // `add_` is a full, valid add on {db} plus the case's own flags (which override).
    for case in &mut cases {
        if case.args.first().map(String::as_str) == Some("add_") {
            let extra: Vec<String> = case.args.drain(1..).collect();
            let mut args = add_args(Path::new("{db}"), "{parent}", 7, 0.5);
            let mut i = 0;
            while i < extra.len() {
                let (flag, value) = (&extra[i], &extra[i + 1]);
                if flag == "--dbPath" {
                    args[1] = value.clone();
                } else if let Some(base) = flag.strip_suffix("File")
                    && !case.message.contains("cannot be used")
                {
                    let at = args.iter().position(|a| a == base).unwrap();
                    args.drain(at..at + 2);
                    args.extend([flag.clone(), value.clone()]);
                } else if let Some(at) = args.iter().position(|a| a == flag) {
                    args[at + 1] = value.clone();
                } else {
                    args.extend([flag.clone(), value.clone()]);
                }
                i += 2;
            }
            case.args = args;
        }
    }
    cases
}

/// The hostile review's cases (each named after what it found) and more of the same kind.
fn hostile_cases() -> Vec<Case> {
    vec![
        // --- one JSON value per file -------------------------------------------------------
        with_setup(
            |d| append_db(d, b"garbage"),
            case("trailing garbage after database.json", 1, "trailing content after the JSON value", &["add_"]),
        ),
        with_setup(
            |d| append_db(d, b"\0"),
            case("a NUL byte after database.json", 1, "trailing content", &["sample", "{db}"]),
        ),
        with_setup(
            |d| append_db(d, b"{}"),
            case("a second object after database.json", 1, "trailing content", &["validate", "{db}"]),
        ),
        with_setup(
            |d| append_db(d, b"\n]"),
            case("a stray bracket after database.json", 1, "trailing content", &["best", "{db}"]),
        ),
        with_setup(
            |d| {
                let text = fs::read(d.join("database.json")).unwrap();
                write_db(d, &[b"\xef\xbb\xbf".as_slice(), &text].concat());
            },
            case("a byte-order mark before database.json", 1, "corrupt database", &["info", "{db}"]),
        ),
        with_setup(
            |d| write_db(d, "[".repeat(100_000).as_bytes()),
            case("100,000 nested arrays as database.json", 1, "corrupt database", &["info", "{db}"]),
        ),
        // --- counters --------------------------------------------------------------------------
        with_setup(
            |d| edit_db(d, |v| v["lastIteration"] = json!(u64::MAX)),
            case(
                "lastIteration of 2^64-1 does not wrap",
                1,
                "`lastIteration` is 18446744073709551615, above 2^53",
                &["add_"],
            ),
        ),
        with_setup(
            |d| edit_db(d, |v| v["lastIteration"] = json!(9_007_199_254_740_993u64)),
            case("lastIteration above 2^53 is refused on load", 1, "above 2^53", &["info", "{db}"]),
        ),
        with_setup(
            |d| edit_db(d, |v| v["lastIteration"] = json!(9_007_199_254_740_991u64)),
            case("lastIteration at 2^53-1 refuses to overflow", 1, "would overflow", &["add_"]),
        ),
        with_setup(
            |d| edit_db(d, |v| v["islandGenerations"] = json!([u64::MAX, 0, 0])),
            case("an island generation of 2^64-1", 1, "`islandGenerations[0]`", &["add_"]),
        ),
        with_setup(
            |d| edit_db(d, |v| v["lastMigrationGeneration"] = json!(u64::MAX)),
            case("lastMigrationGeneration of 2^64-1", 1, "`lastMigrationGeneration`", &["stats", "{db}"]),
        ),
        with_setup(
            |d| {
                edit_db(d, |v| {
                    let id = best_id(v);
                    v["programs"][&id]["generation"] = json!(u64::MAX);
                });
            },
            case("a program generation of 2^64-1", 1, ".generation` is 18446744073709551615", &["best", "{db}"]),
        ),
        with_setup(
            |d| edit_db(d, |v| v["lastIteration"] = json!(-1)),
            case("a negative lastIteration", 1, "lastIteration", &["info", "{db}"]),
        ),
        with_setup(
            |d| edit_db(d, |v| v["lastIteration"] = json!(1.5)),
            case("a fractional lastIteration", 1, "lastIteration", &["info", "{db}"]),
        ),
        // --- the file's structure -------------------------------------------------------------
        with_setup(
            |d| edit_db(d, |v| v["islands"] = json!([[], [], []])),
            case("a program on no island", 1, "on no island", &["sample", "{db}"]),
        ),
        with_setup(
            |d| edit_db(d, |v| v["currentIsland"] = json!(7)),
            case("currentIsland out of range", 1, "`currentIsland`", &["sample", "{db}"]),
        ),
        with_setup(
            |d| edit_db(d, |v| v["islandGenerations"] = json!([0])),
            case(
                "islandGenerations shorter than the islands",
                1,
                "`islandGenerations` has 1 entries",
                &["info", "{db}"],
            ),
        ),
        with_setup(
            |d| edit_db(d, |v| v["numIslands"] = json!(0)),
            case("numIslands 0 in the file", 1, "numIslands", &["info", "{db}"]),
        ),
        with_setup(
            |d| edit_db(d, |v| v["evodb"]["format"] = json!(99)),
            case("a database from a newer evodb", 1, "upgrade evodb", &["info", "{db}"]),
        ),
        with_setup(
            |d| edit_db(d, |v| v["evodb"]["rng"] = json!("not a state")),
            case("a garbled PRNG state", 1, "corrupt database", &["sample", "{db}"]),
        ),
        with_setup(
            |d| edit_db(d, |v| v["evodb"]["candidates"]["nextSeq"] = json!(1)),
            case("a next seq a stored program already has", 1, "the next candidate is numbered 1", &["add_"]),
        ),
        with_setup(
            |d| {
                edit_db(d, |v| {
                    let id = best_id(v);
                    v["programs"][&id]["timestamp"] = json!("yesterday");
                });
            },
            case("a timestamp that is a string", 1, ".timestamp", &["info", "{db}"]),
        ),
        with_setup(
            |d| {
                fs::create_dir(d.join("../dir-db"))
                    .and_then(|_| fs::create_dir(d.join("../dir-db/database.json")))
                    .unwrap();
            },
            case("database.json is a directory", 5, "dir-db/database.json", &["info", "{dir}/dir-db"]),
        ),
        // --- metrics bounds --------------------------------------------------------------------
        with_setup(
            |d| {
                edit_db(d, |v| {
                    let id = best_id(v);
                    v["programs"][&id]["metrics"] = (0..100_000).map(|i| (format!("m{i}"), json!(0.5))).collect();
                });
            },
            case("a stored program with 100,000 metrics", 1, "more than 1000", &["sample", "{db}"]),
        ),
        add_case(
            "1001 metric names",
            1,
            "more than 1000",
            "--metrics",
            Some(Box::leak(
                serde_json::to_string(
                    &(0..1001).map(|i| (format!("m{i}"), json!(1))).collect::<serde_json::Map<_, _>>(),
                )
                .unwrap()
                .into_boxed_str(),
            )),
        ),
        add_case(
            "a 300-byte metric name",
            1,
            "300-byte name",
            "--metrics",
            Some(Box::leak(format!("{{\"{}\": 1}}", "m".repeat(300)).into_boxed_str())),
        ),
        add_case("metrics nested arrays", 1, "`metrics`", "--metrics", Some("[[[[1]]]]")),
        // --- files that are not files ------------------------------------------------------------
        with_setup(
            |d| fifo(&d.join("../fifo")),
            case(
                "--targetCodeFile naming a FIFO with no writer",
                1,
                "is not a regular file (a FIFO)",
                &["add_", "--targetCodeFile", "{dir}/fifo"],
            ),
        ),
        with_setup(
            |d| fifo(&d.join("../fifo")),
            case(
                "--changesFile naming a FIFO with no writer",
                1,
                "is not a regular file (a FIFO)",
                &["add_", "--changesFile", "{dir}/fifo"],
            ),
        ),
        with_setup(
            |d| fifo(&d.join("../fifo")),
            case(
                "--config naming a FIFO with no writer",
                1,
                "is not a regular file (a FIFO)",
                &["init", "{dir}/new", "--config", "{dir}/fifo"],
            ),
        ),
        case(
            "--targetCodeFile naming a directory",
            1,
            "is not a regular file (a directory)",
            &["add_", "--targetCodeFile", "{dir}"],
        ),
        case(
            "--targetCodeFile naming a device",
            1,
            "is not a regular file (a device)",
            &["add_", "--targetCodeFile", "/dev/null"],
        ),
        // --- usage: enums list their values ------------------------------------------------------
        case("--status bogus", 2, "[possible values: accepted, rejected, error]", &["add_", "--status", "bogus"]),
        case(
            "--status with a capital",
            2,
            "[possible values: accepted, rejected, error]",
            &["add_", "--status", "Accepted"],
        ),
        case(
            "--operator bogus",
            2,
            "[possible values: exploitation, exploration, crossover, migration]",
            &["add_", "--operator", "bogus"],
        ),
        case("--status error without --reason", 1, "reason", &["add_", "--status", "error"]),
        case("--tail not a number", 2, "invalid value 'abc'", &["history", "{db}", "--tail", "abc"]),
        case("a negative init seed", 2, "unexpected argument '-1'", &["init", "{dir}/new", "--seed", "-1"]),
        // --- nothing to validate, nothing to find ------------------------------------------------
        case("validate on a missing directory", 3, "nothing to validate", &["validate", "{dir}/nowhere"]),
        with_setup(
            |d| fs::create_dir(d.join("../empty")).unwrap(),
            case("validate on a directory with no database", 3, "nothing to validate", &["validate", "{dir}/empty"]),
        ),
        case("lineage of an unknown id", 3, "no live program has id `nope`", &["lineage", "{db}", "nope"]),
        case("an unknown plan item", 1, "nope", &["add_", "--planItem", "nope"]),
        // --- plans and config ----------------------------------------------------------------------
        case("a plan of 0 items", 1, "`n` is 0", &["plan", "{db}", "0"]),
        case(
            "a plan freezing an island that does not exist",
            1,
            "names island 9",
            &["plan", "{db}", "2", "--frozen", "9"],
        ),
        case("a plan freezing every island", 1, "freezes every island", &["plan", "{db}", "2", "--frozen", "0,1,2"]),
        case(
            "a billion islands",
            1,
            "`numIslands` is 1000000000",
            &["init", "{dir}/new", "--numIslands", "1000000000"],
        ),
        case("a migration interval of 0", 1, "`migrationInterval`", &["init", "{dir}/new", "--migrationInterval", "0"]),
        case("features not JSON", 1, "--features is not valid JSON", &["init", "{dir}/new", "--features", "{bad"]),
        case(
            "negative operator weight",
            1,
            "exploitation",
            &["init", "{dir}/new", "--operators", "{\"exploitation\": -1}"],
        ),
        // --- the sandbox's limits ------------------------------------------------------------------
        with_setup(
            |d| {
                edit_db(d, |v| {
                    let id = best_id(v);
                    v["programs"][&id]["changes"] = json!("x".repeat(8 << 20));
                });
            },
            case(
                "a memory cap below the database's size",
                4,
                "exceeded its memory cap (4 MiB)",
                &["info", "{db}", "--memoryLimitMb", "4"],
            ),
        ),
        case("a memory cap of 0", 4, "exceeded its memory cap (0 MiB)", &["info", "{db}", "--memoryLimitMb", "0"]),
        case("a time budget of 0", 4, "exceeded its time budget (0 ms)", &["info", "{db}", "--timeBudgetMs", "0"]),
    ]
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            files.insert(path.clone(), fs::read(&path).unwrap());
        }
    }
    files
}

#[test]
fn every_bad_input_is_refused_by_name_and_changes_nothing() {
    let template = tempfile::tempdir().unwrap();
    let template_db = template.path().join("db");
    let parent = evodb(&seed_args(&template_db)).json()["id"].as_str().unwrap().to_string();
    for i in 1..=3 {
        evodb(&add_args(&template_db, &parent, i, 0.2 * i as f64)).json();
    }

    let cases = catalogue();
    for case in &cases {
        let scratch = tempfile::tempdir().unwrap();
        let db = scratch.path().join("db");
        fs::create_dir(&db).unwrap();
        for (path, bytes) in snapshot(&template_db) {
            fs::write(db.join(path.file_name().unwrap()), bytes).unwrap();
        }
        (case.setup)(&db);
        let before = snapshot(&db);
        let args: Vec<String> = case
            .args
            .iter()
            .map(|a| {
                a.replace("{db}", db.to_str().unwrap())
                    .replace("{dir}", scratch.path().to_str().unwrap())
                    .replace("{parent}", &parent)
            })
            .collect();
        let run = evodb(&args);
        assert_eq!(run.code, case.code, "{}: exit code\n{run:?}", case.name);
        assert!(run.stderr.contains(case.message), "{}: stderr should contain {:?}\n{run:?}", case.name, case.message);
        assert_eq!(run.stderr.lines().count(), run.stderr.trim().lines().count());
        assert!(snapshot(&db) == before, "{}: the database directory changed", case.name);
        assert!(!scratch.path().join("plain-file/db").exists());
        assert!(!scratch.path().join("new").exists(), "{}: a refused init created its directory", case.name);
        assert!(
            !run.stderr.contains("`/db/") && !run.stderr.contains("`/db`"),
            "{}: the message names the sandbox's path, not the user's\n{run:?}",
            case.name
        );
    }
    println!("bad input: {} cases refused, each with its message and exit code, files byte-identical", cases.len());
    assert!(cases.len() >= 100, "the catalogue holds {} cases", cases.len());
}

/// Not an error, as in the seed: an unknown parent is accepted with generation 0 and a warning.
#[test]
fn an_unknown_parent_is_a_warning_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    evodb(&seed_args(dir.path())).json();
    let run = evodb(&add_args(dir.path(), "no-such-program", 1, 0.5));
    let added = run.json();
    assert!(run.stderr.starts_with("warning: parent id `no-such-program` is not in the database"), "{run:?}");
    let text = fs::read_to_string(dir.path().join("database.json")).unwrap();
    let db: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(db["programs"][added["id"].as_str().unwrap()]["generation"], 0);
}
