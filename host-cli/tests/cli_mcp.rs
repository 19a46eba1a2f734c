//! `evodb mcp` over its stdio, as raw JSON-RPC lines: the protocol versions it negotiates, bad
//! tool calls answered as tool errors (`isError`) that name the argument and change nothing on
//! disk, and parallel calls all answered on one consistent run. (`tests/mcp/mcp.test.mjs` drives
//! it with the official TypeScript SDK's client.)

use crate::cli;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::Stdio;

use cli::postgres::Cluster;
use cli::{bytes, evodb, seed_args};
use serde_json::{Value, json};

/// Runs `evodb mcp <db>`, sends `initialize` (at `version`), `initialized` and `requests` (ids from 2),
/// and returns every answer by id once all have come.
fn session(db: &Path, version: &str, requests: &[Value]) -> BTreeMap<u64, Value> {
    session_on(&["mcp", db.to_str().unwrap()], version, requests)
}

/// [`session`] with `evodb`'s arguments given (`mcp --store URL --run NAME`).
fn session_on(args: &[&str], version: &str, requests: &[Value]) -> BTreeMap<u64, Value> {
    let mut child = cli::command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("evodb mcp starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": version,
            "capabilities": {}, "clientInfo": {"name": "cli_mcp", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    lines.extend(requests.iter().enumerate().map(|(i, r)| {
        let mut r = r.clone();
        r["jsonrpc"] = json!("2.0");
        r["id"] = json!(i as u64 + 2);
        r
    }));
    for line in &lines {
        writeln!(stdin, "{line}").unwrap();
    }
    stdin.flush().unwrap();
    let mut answers = BTreeMap::new();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    while answers.len() < requests.len() + 1 {
        let mut line = String::new();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the server closed with {answers:?}");
        let message: Value = serde_json::from_str(&line).expect("one JSON-RPC message a line");
        if let Some(id) = message["id"].as_u64() {
            answers.insert(id, message);
        }
    }
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "evodb mcp exits 0 when the client closes stdin: {status:?}");
    answers
}

fn tool(name: &str, arguments: Value) -> Value {
    json!({"method": "tools/call", "params": {"name": name, "arguments": arguments}})
}

#[test]
fn both_protocol_versions_are_negotiated() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db");
    for (asked, answered) in [("2025-06-18", "2025-06-18"), ("2025-11-25", "2025-11-25"), ("2024-11-05", "2025-11-25")]
    {
        let answers = session(&db, asked, &[json!({"method": "tools/list"})]);
        assert_eq!(answers[&1]["result"]["protocolVersion"], answered, "{answers:?}");
        let tools = answers[&2]["result"]["tools"].as_array().unwrap();
        assert!(tools.iter().any(|t| t["name"] == "evo_step") && tools.iter().any(|t| t["name"] == "should_stop"));
    }
    assert!(!db.exists(), "listing tools creates no run");
}

#[test]
fn bad_calls_are_tool_errors_naming_the_argument_and_change_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db");
    assert_eq!(evodb(&seed_args(&db)).code, 0);
    let before = (bytes(&db.join("database.json")), bytes(&db.join("history.ndjson")));
    let cases = [
        (tool("plan", json!({})), "missing field `n`"),
        (tool("plan", json!({"n": -1})), "argument `n`"),
        (tool("plan", json!({"n": 2, "size": 2})), "unknown field `size`"),
        (
            tool("add", json!({"parentId": "x", "metrics": {"s": 1}, "changes": "c"})),
            "missing required argument: codePath",
        ),
        (
            tool("add", json!({"codePath": "f", "targetCode": "x", "parentId": "x", "metrics": [1], "changes": "c"})),
            "`metrics`",
        ),
        (
            tool(
                "add",
                json!({"codePath": "f", "targetCode": "x", "parentId": "x", "metrics": {"s": "NaN"}, "changes": "c"}),
            ),
            "metrics",
        ),
        (tool("note", json!({"kind": "gossip", "text": "t"})), "argument `kind`"),
        (tool("lineage", json!({"programId": "--help"})), "lineage"),
        (tool("sample", json!({"target": "nope"})), "nope"),
        (tool("evo_step", json!({"phase": "fly"})), "argument `phase`"),
        (tool("evo_step", json!({"phase": "select"})), "evo_init"),
        (tool("evo_report_seed", json!({"fitness": 1})), "evo_init"),
        (
            tool("evo_init", json!({"repo_path": tmp.path(), "benchmark_cmd": "b", "objective": "max"})),
            "evo_init did not start",
        ),
        (tool("no_such_tool", json!({})), "no tool `no_such_tool`"),
    ];
    let requests: Vec<Value> = cases.iter().map(|(r, _)| r.clone()).collect();
    let answers = session(&db, "2025-11-25", &requests);
    for (i, (request, named)) in cases.iter().enumerate() {
        let result = &answers[&(i as u64 + 2)]["result"];
        assert_eq!(result["isError"], true, "{request} → {result}");
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(text.contains(named), "{request} → {text} should name {named}");
    }
    assert_eq!((bytes(&db.join("database.json")), bytes(&db.join("history.ndjson"))), before, "nothing changed");
}

#[test]
fn parallel_calls_are_all_answered_on_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db");
    let seed = evodb(&seed_args(&db)).json();
    let id = seed["id"].as_str().unwrap();
    let adds: Vec<Value> = (0..24)
        .map(|i| {
            tool(
                "add",
                json!({"codePath": "f.py", "targetCode": format!("v{i}"), "parentId": id,
                    "metrics": {"score": f64::from(i) / 100.0}, "changes": format!("c{i}"), "id": format!("p{i}")}),
            )
        })
        .collect();
    let answers = session(&db, "2025-06-18", &adds);
    for i in 0..24u64 {
        let result = &answers[&(i + 2)]["result"];
        assert_eq!(result["isError"], false, "{result}");
        assert_eq!(result["structuredContent"]["id"], format!("p{i}"));
    }
    let info = evodb(&["info", db.to_str().unwrap()]).json();
    assert_eq!(info["programCount"], 25, "{info}");
    assert_eq!(evodb(&["validate", db.to_str().unwrap()]).code, 0);
    // What the playground reads: the history has every add.
    let history = String::from_utf8(bytes(&db.join("history.ndjson"))).unwrap();
    assert!(history.lines().count() >= 25);
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn a_postgres_run_is_served_as_a_directory_is() {
    let Some(cluster) = Cluster::start() else { return };
    let url = cluster.url();
    let store = ["--store", url.as_str(), "--run", "mcp-run"];
    let mut args = vec!["mcp"];
    args.extend(store);
    let requests = [
        tool("seed", json!({"codePath": "f.py", "targetCode": "x = 1", "metrics": {"score": 0.5}})),
        tool("best", json!({})),
        tool("plan", json!({"n": "x"})),
    ];
    let answers = session_on(&args, "2025-11-25", &requests);
    let seeded = &answers[&2]["result"]["structuredContent"];
    assert!(seeded["id"].is_string(), "{answers:?}");
    let best_text = answers[&3]["result"]["content"][0]["text"].as_str().unwrap();
    let mut best = vec!["best"];
    best.extend(store);
    assert_eq!(best_text, evodb(&best).stdout.trim_end(), "the tool answers what the CLI prints");
    assert_eq!(answers[&4]["result"]["isError"], true);
    let mut validate = vec!["validate"];
    validate.extend(store);
    assert_eq!(evodb(&validate).code, 0);
}

/// Issue 39: an idea run over MCP — `add_idea` adds a scored idea (a bad score is a tool error
/// that changes nothing) and `evoidea_export` answers evoidea's state and final files.
#[test]
fn ideas_are_added_and_exported_through_the_idea_tools() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("ideas-run");
    assert_eq!(evodb(&["ideas", db.to_str().unwrap(), "--population", "2", "--elite", "1"]).code, 0);
    let scores = |base: f64| {
        let names = [
            "feasibility",
            "speed_to_value",
            "differentiation",
            "market_size",
            "distribution",
            "moats",
            "risk",
            "clarity",
        ];
        Value::Object(names.iter().map(|n| (n.to_string(), json!(base))).collect())
    };
    let idea = json!({"title": "Uptime pager", "summary": "Pages solo devs.", "facets": {"audience": "solo devs"}});
    let answers = session(
        &db,
        "2025-11-25",
        &[
            tool("plan", json!({"n": 1})),
            tool("add_idea", json!({"idea": idea, "scores": scores(6.0), "planItem": "round-1/generate-0"})),
            tool("add_idea", json!({"idea": idea, "scores": scores(11.0)})),
            tool("evoidea_export", json!({})),
        ],
    );
    let plan = &answers[&2]["result"]["structuredContent"];
    assert_eq!(plan["items"][0]["idea"]["task"], "generate", "{plan}");
    let added = &answers[&3]["result"];
    assert_eq!(added["isError"], false, "{added}");
    let refused = &answers[&4]["result"];
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(refused["content"][0]["text"].as_str().unwrap().contains("scores.feasibility"), "{refused}");
    let export = &answers[&5]["result"]["structuredContent"];
    assert_eq!(export["state"]["run_id"], "ideas-run", "{export}");
    assert_eq!(export["state"]["ideas"].as_array().unwrap().len(), 1, "the refused idea changed nothing: {export}");
    assert_eq!(export["final"]["best_idea"]["title"], "Uptime pager");
}

#[test]
fn admit_and_add_take_the_callers_embedding() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db");
    let seed = session(
        &db,
        "2025-11-25",
        &[tool("seed", json!({"codePath": "c.py", "targetCode": "x = 1", "metrics": {"s": 0.1}, "embedding": [1, 0]}))],
    );
    let seed_text = seed[&2]["result"]["content"][0]["text"].as_str().unwrap();
    let seed_id = serde_json::from_str::<Value>(seed_text).unwrap()["id"].as_str().unwrap().to_string();
    let add = |embedding: Value| {
        tool(
            "add",
            json!({"codePath": "c.py", "targetCode": "y = 2", "parentId": seed_id, "metrics": {"s": 0.2},
                "changes": "c", "embedding": embedding}),
        )
    };
    let answers = session(
        &db,
        "2025-11-25",
        &[
            tool("admit", json!({"code": "z = 3", "codePath": "c.py", "embedding": [0.9, 0.1]})),
            add(json!([1, 2, 3])),
            tool("admit", json!({"code": "z = 3", "embedding": []})),
            add(json!([0.2, 0.9])),
        ],
    );
    let text = |id: u64| answers[&id]["result"]["content"][0]["text"].as_str().unwrap().to_string();
    let near: Value = serde_json::from_str(&text(2)).unwrap();
    assert_eq!((near["verdict"].as_str(), near["of"].as_str()), (Some("near-duplicate"), Some(seed_id.as_str())));
    for id in [3, 4] {
        assert_eq!(answers[&id]["result"]["isError"], true, "{}", text(id));
        assert!(text(id).contains("embedding"), "{}", text(id));
    }
    assert!(answers[&5]["result"]["isError"] != true, "{}", text(5));
    let stored: Value = serde_json::from_slice(&bytes(&db.join("database.json"))).unwrap();
    let kept: Vec<&Value> = stored["programs"].as_object().unwrap().values().map(|p| &p["embedding"]).collect();
    assert_eq!(kept, [&json!([1, 0]), &json!([0.2, 0.9])]);
}
