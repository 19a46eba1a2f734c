//! `evodb setup <claude-code|cursor|windsurf|codex> [--project DIR] [--db PATH] [--dryRun]`:
//! the pieces of the plugin (`plugin/`) written where each host reads them — the `evodb mcp`
//! server in the host's MCP configuration, evo-anything's five agents (as agents, rules or an
//! AGENTS.md section), the `/evolve` command and the evodb-evolve skill where the host has
//! them. A configuration that exists is merged into (only the `evodb` server entry, or evodb's
//! marked section, is replaced; everything else is kept byte for byte where the format allows),
//! so running it twice changes nothing the second time.

use std::fs;
use std::path::{Path, PathBuf};

use clap::ArgMatches;
use serde_json::{Map, Value, json};

use crate::context::Context;
use crate::failure::Failure;
use crate::install::{check_writable, skill_files, write_file};
use crate::matches::{required, subcommand};
use crate::reply::Reply;

/// The plugin's agents and command, embedded: the same files `plugin/` ships.
const AGENTS: [(&str, &str); 5] = [
    ("orchestrator", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../plugin/agents/orchestrator.md"))),
    ("map", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../plugin/agents/map.md"))),
    ("worker", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../plugin/agents/worker.md"))),
    ("policy", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../plugin/agents/policy.md"))),
    ("reflect", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../plugin/agents/reflect.md"))),
];
const EVOLVE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../plugin/commands/evolve.md"));
/// `/evoidea` and its three subagents (Claude Code only: the command starts them by name).
const EVOIDEA: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../plugin/commands/evoidea.md"));
const IDEA_AGENTS: [(&str, &str); 3] = [
    ("idea-generate", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../plugin/agents/idea-generate.md"))),
    ("idea-critic", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../plugin/agents/idea-critic.md"))),
    ("idea-refine", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../plugin/agents/idea-refine.md"))),
];

const BEGIN: &str = "<!-- evodb: begin (written by `evodb setup`; replaced on the next run) -->";
const END: &str = "<!-- evodb: end -->";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    ClaudeCode,
    Cursor,
    Windsurf,
    Codex,
}

#[derive(Debug)]
pub struct Args {
    pub host: Host,
    pub project: Option<PathBuf>,
    pub db: String,
    pub dry_run: bool,
    pub home: Option<PathBuf>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches, home: Option<PathBuf>) -> Args {
        let (name, m) = subcommand(m);
        let host = match name {
            "claude-code" => Host::ClaudeCode,
            "cursor" => Host::Cursor,
            "windsurf" => Host::Windsurf,
            "codex" => Host::Codex,
            other => unreachable!("the table's command `setup {other}` has no host here"),
        };
        Args {
            host,
            project: m.get_one::<PathBuf>("project").cloned(),
            db: required(m, "db"),
            dry_run: m.get_flag("dryRun"),
            home,
        }
    }

    pub fn run(self, _: &Context) -> Result<Reply, Failure> {
        let pieces = self.pieces()?;
        // Every piece is read, merged and checked before the first write.
        let mut planned = Vec::new();
        for piece in &pieces {
            check_writable(&piece.root, &piece.relative)?;
            let path = piece.root.join(&piece.relative);
            let existing = read_existing(&path)?;
            let content = piece.content.render(existing.as_deref(), &path)?;
            let action = match (&existing, &piece.content) {
                (None, _) => "create",
                (Some(old), _) if *old == content => "unchanged",
                (Some(_), Content::Whole(_)) => "update",
                (Some(_), _) => "merge",
            };
            planned.push((piece, path, content, action));
        }
        let mut report = Vec::new();
        for (piece, path, content, action) in planned {
            if action != "unchanged" && !self.dry_run {
                write_file(&piece.root, &piece.relative, content.as_bytes())?;
            }
            let mut entry = json!({"path": path.display().to_string(), "action": action});
            if self.dry_run && piece.show {
                entry["content"] = Value::from(content);
            }
            report.push(entry);
        }
        let skill_files = self.skill_dir().map(|dir| (dir, skill_files()));
        let mut skill = Value::Null;
        if let Some((dir, files)) = &skill_files {
            let (root, relative) = dir;
            for (file, _) in files {
                check_writable(root, &relative.join(file))?;
            }
            let mut changed = 0;
            for (file, contents) in files {
                let path = relative.join(file);
                if fs::read(root.join(&path)).ok().as_deref() != Some(*contents) {
                    changed += 1;
                    if !self.dry_run {
                        write_file(root, &path, contents)?;
                    }
                }
            }
            skill =
                json!({"path": root.join(relative).display().to_string(), "files": files.len(), "changed": changed});
        }
        Ok(Reply::json(&json!({
            "host": self.host_name(),
            "scope": if self.project.is_some() { "project" } else { "user" },
            "dryRun": self.dry_run,
            "files": report,
            "skill": skill,
        })))
    }

    fn host_name(&self) -> &'static str {
        match self.host {
            Host::ClaudeCode => "claude-code",
            Host::Cursor => "cursor",
            Host::Windsurf => "windsurf",
            Host::Codex => "codex",
        }
    }

    fn home(&self) -> Result<PathBuf, Failure> {
        self.home.clone().ok_or_else(|| {
            Failure::Usage("HOME is not set: pass --project DIR to write the project's configuration instead".into())
        })
    }

    /// Where each host reads each piece (its documented locations).
    fn pieces(&self) -> Result<Vec<Piece>, Failure> {
        let server = json!({"command": "evodb", "args": ["mcp", self.db]});
        let project = self.project.clone();
        let mut pieces = Vec::new();
        let json_config = |root: PathBuf, relative: &str| Piece::new(root, relative, Content::McpJson(server.clone()));
        match (self.host, project) {
            (Host::ClaudeCode, Some(dir)) => {
                pieces.push(json_config(dir.clone(), ".mcp.json"));
                pieces.extend(agent_files(&dir, ".claude/agents", "evodb-", ".md", false));
                pieces.push(Piece::file(dir.clone(), ".claude/commands/evolve.md", EVOLVE));
                pieces.extend(evoidea_files(&dir));
            }
            (Host::ClaudeCode, None) => {
                let home = self.home()?;
                pieces.push(json_config(home.clone(), ".claude.json"));
                pieces.extend(agent_files(&home, ".claude/agents", "evodb-", ".md", false));
                pieces.push(Piece::file(home.clone(), ".claude/commands/evolve.md", EVOLVE));
                pieces.extend(evoidea_files(&home));
            }
            (Host::Cursor, Some(dir)) => {
                pieces.push(json_config(dir.clone(), ".cursor/mcp.json"));
                pieces.extend(agent_files(&dir, ".cursor/rules", "evodb-", ".mdc", true));
            }
            (Host::Cursor, None) => pieces.push(json_config(self.home()?, ".cursor/mcp.json")),
            (Host::Windsurf, project) => {
                // Windsurf reads MCP servers from the user's config only.
                pieces.push(json_config(self.home()?, ".codeium/windsurf/mcp_config.json"));
                if let Some(dir) = project {
                    pieces.extend(agent_files(&dir, ".windsurf/rules", "evodb-", ".md", true));
                }
            }
            (Host::Codex, project) => {
                let root = match &project {
                    Some(dir) => dir.clone(),
                    None => self.home()?,
                };
                pieces.push(Piece::new(root.clone(), ".codex/config.toml", Content::CodexToml(self.db.clone())));
                let agents_md = if project.is_some() { "AGENTS.md" } else { ".codex/AGENTS.md" };
                pieces.push(Piece::new(root, agents_md, Content::MarkedSection(agents_section())));
            }
        }
        Ok(pieces)
    }

    /// Where the skill goes: Claude Code's skills directory (the other hosts have none).
    fn skill_dir(&self) -> Option<(PathBuf, PathBuf)> {
        if self.host != Host::ClaudeCode {
            return None;
        }
        let root = self.project.clone().or_else(|| self.home.clone())?;
        Some((root, PathBuf::from(".claude/skills/evodb-evolve")))
    }
}

/// One file to write: under `root` (the project or the home directory), at `relative`.
struct Piece {
    root: PathBuf,
    relative: PathBuf,
    content: Content,
    /// Shown in full by --dryRun (configurations; not the long agent texts).
    show: bool,
}

impl Piece {
    fn new(root: PathBuf, relative: &str, content: Content) -> Piece {
        Piece { root, relative: PathBuf::from(relative), content, show: true }
    }

    fn file(root: PathBuf, relative: &str, text: &str) -> Piece {
        Piece { root, relative: PathBuf::from(relative), content: Content::Whole(text.to_string()), show: false }
    }
}

enum Content {
    /// The whole file is evodb's.
    Whole(String),
    /// `{"mcpServers": {"evodb": …}}` merged into a JSON object.
    McpJson(Value),
    /// `[mcp_servers.evodb]` merged into a TOML file.
    CodexToml(String),
    /// evodb's section (between [`BEGIN`] and [`END`]) merged into a Markdown file.
    MarkedSection(String),
}

impl Content {
    /// The file's new text, given its current text (if any).
    fn render(&self, existing: Option<&str>, path: &Path) -> Result<String, Failure> {
        match self {
            Content::Whole(text) => Ok(text.clone()),
            Content::McpJson(server) => {
                let mut config: Map<String, Value> = match existing.map(str::trim) {
                    None | Some("") => Map::new(),
                    Some(text) => match serde_json::from_str(text) {
                        Ok(Value::Object(map)) => map,
                        _ => {
                            return Err(Failure::BadInput(format!(
                                "`{}` is not a JSON object; fix it (or move it away) and run evodb setup again",
                                path.display()
                            )));
                        }
                    },
                };
                let servers = config.entry("mcpServers").or_insert_with(|| json!({}));
                let Some(servers) = servers.as_object_mut() else {
                    return Err(Failure::BadInput(format!(
                        "`mcpServers` in `{}` is not an object; fix it and run evodb setup again",
                        path.display()
                    )));
                };
                servers.insert("evodb".into(), server.clone());
                let mut text = serde_json::to_string_pretty(&config).map_err(|e| Failure::Internal(e.to_string()))?;
                text.push('\n');
                Ok(text)
            }
            Content::CodexToml(db) => {
                Ok(merge_toml_table(existing.unwrap_or(""), "mcp_servers.evodb", &codex_table(db)))
            }
            Content::MarkedSection(section) => Ok(merge_section(existing.unwrap_or(""), section)),
        }
    }
}

fn read_existing(path: &Path) -> Result<Option<String>, Failure> {
    match fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| Failure::BadInput(format!("`{}` is not UTF-8 text; fix or move it", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Failure::Io(format!("cannot read `{}`: {e}", path.display()))),
    }
}

/// The five agents as files in `dir`; `rules` adds the front matter rule files need
/// (`description`, never applied on its own).
fn agent_files(root: &Path, dir: &str, prefix: &str, extension: &str, rules: bool) -> Vec<Piece> {
    AGENTS
        .iter()
        .map(|(name, text)| {
            let text = if rules { as_rule(text) } else { (*text).to_string() };
            Piece::file(root.to_path_buf(), &format!("{dir}/{prefix}{name}{extension}"), &text)
        })
        .collect()
}

/// `/evoidea` and its generate, critic and refine agents, for Claude Code under `root`.
fn evoidea_files(root: &Path) -> Vec<Piece> {
    let mut pieces = vec![Piece::file(root.to_path_buf(), ".claude/commands/evoidea.md", EVOIDEA)];
    pieces.extend(
        IDEA_AGENTS
            .iter()
            .map(|(name, text)| Piece::file(root.to_path_buf(), &format!(".claude/agents/evodb-{name}.md"), text)),
    );
    pieces
}

/// An agent file as a rule: its description kept, the rest of its front matter dropped.
fn as_rule(text: &str) -> String {
    let (front, body) = split_front_matter(text);
    let description = front.lines().find_map(|l| l.strip_prefix("description:")).unwrap_or("").trim();
    format!("---\ndescription: {description}\nalwaysApply: false\n---\n{body}")
}

fn split_front_matter(text: &str) -> (&str, &str) {
    text.strip_prefix("---\n").and_then(|rest| rest.split_once("\n---\n")).unwrap_or(("", text))
}

/// The agents for Codex's AGENTS.md, one section.
fn agents_section() -> String {
    let mut out = String::from(
        "# evodb: evo-anything's agents\n\nThe `evodb` MCP server (`evodb mcp`) keeps the evolution; these roles drive it.\n",
    );
    for (_, text) in AGENTS {
        let (_, body) = split_front_matter(text);
        out.push('\n');
        out.push_str(&body.replace("\n# ", "\n## ").replacen("# ", "## ", 1));
    }
    out
}

fn toml_string(text: &str) -> String {
    // A JSON string is a valid TOML basic string for these (no control characters are written).
    serde_json::to_string(text).unwrap_or_default()
}

fn codex_table(db: &str) -> String {
    format!("command = \"evodb\"\nargs = [\"mcp\", {}]\n", toml_string(db))
}

/// `[table]` with `body` in the TOML text: the table replaced where it is (up to the next table
/// header), appended otherwise; every other line kept.
fn merge_toml_table(text: &str, table: &str, body: &str) -> String {
    let header = format!("[{table}]");
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.trim() == header);
    let block = format!("{header}\n{body}");
    match start {
        Some(start) => {
            let end = lines[start + 1..]
                .iter()
                .position(|l| l.trim_start().starts_with('['))
                .map_or(lines.len(), |i| start + 1 + i);
            let mut out: Vec<String> = lines[..start].iter().map(|l| (*l).to_string()).collect();
            out.push(block.trim_end().to_string());
            if end < lines.len() {
                out.push(String::new());
            }
            out.extend(lines[end..].iter().map(|l| (*l).to_string()));
            let mut text = out.join("\n");
            text.push('\n');
            text
        }
        None if text.trim().is_empty() => block,
        None => format!("{}\n\n{block}", text.trim_end()),
    }
}

/// evodb's section in the Markdown text: replaced between its markers, or appended.
fn merge_section(text: &str, section: &str) -> String {
    let block = format!("{BEGIN}\n{}\n{END}\n", section.trim_end());
    match (text.find(BEGIN), text.find(END)) {
        (Some(start), Some(end)) if end > start => {
            let after = &text[end + END.len()..];
            format!("{}{block}{}", &text[..start], after.strip_prefix('\n').unwrap_or(after))
        }
        _ if text.trim().is_empty() => block,
        _ => format!("{}\n\n{block}", text.trim_end()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toml_table_is_replaced_in_place_and_others_kept() {
        let text = "model = \"o3\"\n\n[mcp_servers.evodb]\ncommand = \"old\"\n\n[mcp_servers.other]\ncommand = \"x\"\n";
        let merged = merge_toml_table(text, "mcp_servers.evodb", &codex_table("runs/r1"));
        assert_eq!(
            merged,
            "model = \"o3\"\n\n[mcp_servers.evodb]\ncommand = \"evodb\"\nargs = [\"mcp\", \"runs/r1\"]\n\n[mcp_servers.other]\ncommand = \"x\"\n"
        );
        assert_eq!(merge_toml_table(&merged, "mcp_servers.evodb", &codex_table("runs/r1")), merged);
        let appended = merge_toml_table("model = \"o3\"\n", "mcp_servers.evodb", &codex_table("d"));
        assert!(appended.starts_with("model = \"o3\"\n\n[mcp_servers.evodb]\n"), "{appended}");
    }

    #[test]
    fn a_marked_section_is_replaced_and_the_rest_kept() {
        let once = merge_section("# My project\n\nBuild with make.\n", "evodb text");
        let twice = merge_section(&once, "evodb text");
        assert_eq!(once, twice);
        assert!(once.starts_with("# My project\n\nBuild with make.\n\n<!-- evodb: begin"), "{once}");
        let changed = merge_section(&format!("{once}\n# After\n"), "new text");
        assert!(
            changed.contains("new text") && !changed.contains("evodb text") && changed.ends_with("# After\n"),
            "{changed}"
        );
    }
}
