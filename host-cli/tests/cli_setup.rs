//! `evodb setup <host>` in scratch HOME and project directories: each host's pieces where it
//! reads them, a second run changing nothing, an existing configuration merged into (its other
//! servers and keys kept), `--dryRun` writing nothing, and a configuration that is not JSON
//! refused before anything is written.

use crate::cli;

use std::fs;
use std::path::Path;

use cli::Run;
use serde_json::{Value, json};

fn setup(home: &Path, args: &[&str]) -> Run {
    Run::from(cli::command().arg("setup").args(args).env("HOME", home).output().expect("evodb runs"))
}

fn actions(run: &Run) -> Vec<String> {
    run.json()["files"].as_array().unwrap().iter().map(|f| f["action"].as_str().unwrap().to_string()).collect()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_host_is_set_up_twice_idempotently_and_merges_into_existing_configs() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    fs::create_dir_all(&home).unwrap();
    fs::create_dir_all(project.join(".cursor")).unwrap();
    let p = project.to_str().unwrap();
    // Existing configurations with a server and keys of their own.
    let other = json!({"mcpServers": {"other": {"command": "other-server"}}, "theme": "dark"});
    fs::write(project.join(".mcp.json"), other.to_string()).unwrap();
    fs::write(project.join(".cursor/mcp.json"), other.to_string()).unwrap();
    fs::create_dir_all(home.join(".codex")).unwrap();
    fs::write(home.join(".codex/config.toml"), "model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n").unwrap();
    fs::write(project.join("AGENTS.md"), "# Project rules\n\nRun make test.\n").unwrap();

    let cases: [(&str, Vec<&str>, &str); 6] = [
        ("claude-code", vec!["--project", p], ".mcp.json"),
        ("claude-code", vec![], ".claude.json"),
        ("cursor", vec!["--project", p], ".cursor/mcp.json"),
        ("windsurf", vec!["--project", p], ".codeium/windsurf/mcp_config.json"),
        ("codex", vec![], ".codex/config.toml"),
        ("codex", vec!["--project", p], "AGENTS.md"),
    ];
    for (host, flags, _) in &cases {
        let mut args = vec![*host];
        args.extend(flags);
        let first = setup(&home, &args);
        assert!(actions(&first).iter().all(|a| a == "create" || a == "merge"), "{host} {flags:?}: {first:?}");
        let again = setup(&home, &args);
        assert!(actions(&again).iter().all(|a| a == "unchanged"), "{host} {flags:?} twice: {again:?}");
        if let Value::Object(skill) = &again.json()["skill"] {
            assert_eq!(skill["changed"], 0, "{host}: the skill is written once");
        }
    }
    let server = json!({"command": "evodb", "args": ["mcp", "evolve-output/database"]});
    for config in [project.join(".mcp.json"), project.join(".cursor/mcp.json")] {
        let merged = read_json(&config);
        assert_eq!(merged["mcpServers"]["evodb"], server, "{}", config.display());
        assert_eq!(merged["mcpServers"]["other"]["command"], "other-server");
        assert_eq!(merged["theme"], "dark");
    }
    assert_eq!(read_json(&home.join(".claude.json"))["mcpServers"]["evodb"], server);
    assert_eq!(read_json(&home.join(".codeium/windsurf/mcp_config.json"))["mcpServers"]["evodb"], server);
    let toml = fs::read_to_string(home.join(".codex/config.toml")).unwrap();
    assert!(toml.starts_with("model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n"), "{toml}");
    assert!(
        toml.contains("[mcp_servers.evodb]\ncommand = \"evodb\"\nargs = [\"mcp\", \"evolve-output/database\"]"),
        "{toml}"
    );
    let agents = fs::read_to_string(project.join("AGENTS.md")).unwrap();
    assert!(
        agents.starts_with("# Project rules\n\nRun make test.\n") && agents.contains("## Orchestrator"),
        "{agents}"
    );
    for file in ["orchestrator", "map", "worker", "policy", "reflect"] {
        assert!(project.join(format!(".claude/agents/evodb-{file}.md")).is_file());
        assert!(project.join(format!(".cursor/rules/evodb-{file}.mdc")).is_file());
        assert!(project.join(format!(".windsurf/rules/evodb-{file}.md")).is_file());
        assert!(home.join(format!(".claude/agents/evodb-{file}.md")).is_file());
    }
    assert!(project.join(".claude/commands/evolve.md").is_file());
    assert!(project.join(".claude/commands/evoidea.md").is_file());
    for agent in ["idea-generate", "idea-critic", "idea-refine"] {
        assert!(project.join(format!(".claude/agents/evodb-{agent}.md")).is_file());
        assert!(home.join(format!(".claude/agents/evodb-{agent}.md")).is_file());
    }
    assert!(project.join(".claude/skills/evodb-evolve/SKILL.md").is_file());
}

#[test]
fn a_dry_run_writes_nothing_and_a_broken_config_is_refused_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    fs::create_dir_all(&home).unwrap();
    let dry = setup(&home, &["cursor", "--dryRun", "--db", "runs/r1"]);
    let files = dry.json()["files"].clone();
    assert_eq!(files[0]["action"], "create");
    assert!(files[0]["content"].as_str().unwrap().contains("runs/r1"), "{files}");
    assert_eq!(fs::read_dir(&home).unwrap().count(), 0, "a dry run writes nothing");

    let project = tmp.path().join("project");
    fs::create_dir_all(&project).unwrap();
    fs::write(project.join(".mcp.json"), "{ not json").unwrap();
    let refused = setup(&home, &["claude-code", "--project", project.to_str().unwrap()]);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stderr.contains(".mcp.json") && refused.stderr.contains("not a JSON object"), "{refused:?}");
    assert_eq!(fs::read_to_string(project.join(".mcp.json")).unwrap(), "{ not json");
    assert!(!project.join(".claude").exists(), "nothing written when one piece is refused");
}
