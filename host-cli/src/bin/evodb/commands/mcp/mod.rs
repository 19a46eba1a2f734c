//! `evodb mcp <dbPath>`: one run served to an agent host (Claude Code, Cursor, Windsurf, Codex)
//! over the Model Context Protocol on stdio, through the official Rust SDK (`rmcp`).
//!
//! Two threads: the SDK's (a one-thread tokio runtime reading and writing the protocol) and this
//! one, which owns the engine — it is not `Sync` — and answers the tool calls one at a time, in
//! the order they arrive. So parallel calls from many workers are serialized here, and the run's
//! lock protects it from every other process (`evodb view`, another `evodb mcp`, the CLI), as
//! it does for any command: each tool runs the command it is named after, on the same stores,
//! lock and history.
//!
//! The tools: evodb's own (`tools.rs`, each answering the JSON its command prints) and
//! evo-anything's `evo_*` (`evo.rs`, with its setup in `evo_setup.rs` and `evo_step` in
//! `evo_step.rs`); `reference.rs` writes docs/mcp.md from the same types.

mod catalogue;
mod evo;
mod evo_setup;
mod evo_state;
mod evo_step;
mod idea_tools;
mod lease_tools;
#[cfg(test)]
mod reference;
mod server;
mod tools;

use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::mpsc;

use clap::ArgMatches;
use serde_json::Value;

use crate::context::Context;
use crate::failure::Failure;
use crate::location::Location;
use crate::matches::required;
use crate::reply::Reply;

#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath") }
    }

    /// Serves until the client closes standard input; prints nothing on stdout but the protocol.
    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        // Checked before serving: a mistyped location is a usage error, not a server that
        // fails every call.
        // A directory is made absolute: evo-anything's git mode runs its adds in the repository.
        let db = match ctx.store.locate(&self.db)? {
            Location::Directory(dir) => std::path::absolute(&dir).map_err(|e| Failure::Io(e.to_string()))?,
            Location::Postgres(_) => self.db.clone(),
        };
        let db = db.to_str().ok_or_else(|| Failure::Usage("<dbPath> is not valid UTF-8".into()))?.to_string();
        let run = Run { ctx, db, setup: RefCell::new(None) };
        let (calls, jobs) = mpsc::channel::<server::Job>();
        let protocol = std::thread::Builder::new()
            .name("mcp-protocol".into())
            .spawn(move || server::serve(calls))
            .map_err(|e| Failure::Io(format!("cannot start the MCP server's thread: {e}")))?;
        // Ends when the protocol thread ends, which drops the last sender.
        for job in jobs {
            let result = catalogue::call(&run, &job.name, job.arguments);
            // The client may have gone (a cancelled call): nothing to answer.
            let _ = job.answer.send(result);
        }
        match protocol.join() {
            Ok(Ok(())) => Ok(Reply::default()),
            Ok(Err(message)) => Err(Failure::Io(format!("the MCP connection failed: {message}"))),
            Err(_) => Err(Failure::Internal("the MCP server's thread panicked".into())),
        }
    }
}

/// The run the tools act on: the command context and the run's location as a command's
/// `<dbPath>` (a directory, or the PostgreSQL URL with the context's `--run`).
pub struct Run<'a> {
    pub ctx: &'a Context,
    pub db: String,
    /// evo-anything's setup between `evo_init` and `evo_register_targets`, before the run exists.
    pub setup: RefCell<Option<evo_state::Session>>,
}

impl Run<'_> {
    /// Runs `evodb <command> <dbPath> <args…>` on this run, as the command line would; the
    /// answer is the JSON the command prints, and its warnings.
    pub fn command(&self, command: &str, args: &[String]) -> Result<Answer, Failure> {
        let mut argv = vec!["evodb".to_string(), command.to_string(), self.db.clone()];
        argv.extend(args.iter().cloned());
        let reply = (self.ctx.dispatch)(self.ctx, &argv)?;
        if let Some(failure) = reply.failure {
            return Err(failure);
        }
        Ok(Answer { text: reply.stdout, warnings: reply.warnings })
    }

    /// The whole database (`evodb export`), parsed.
    pub fn export(&self) -> Result<Value, Failure> {
        self.json("export", &[]).map(|(value, _)| value)
    }

    /// `evodb init` with this config (written to a file of its own for `--config`, then removed).
    pub fn init_with_config(&self, config: &Value) -> Result<(), Failure> {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let path = std::env::temp_dir().join(format!("evodb-mcp-config-{}-{nanos}.json", std::process::id()));
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| Failure::Io(format!("cannot write the run's config to {}: {e}", path.display())))?;
        let written = std::io::Write::write_all(&mut file, config.to_string().as_bytes());
        drop(file);
        let result = written
            .map_err(|e| Failure::Io(format!("cannot write the run's config: {e}")))
            .and_then(|()| self.command("init", &[format!("--config={}", path.display())]));
        let _ = std::fs::remove_file(&path);
        result.map(|_| ())
    }

    /// [`Run::command`], its answer parsed.
    pub fn json(&self, command: &str, args: &[String]) -> Result<(Value, Vec<String>), Failure> {
        let answer = self.command(command, args)?;
        let value = serde_json::from_str(&answer.text)
            .map_err(|e| Failure::Internal(format!("`evodb {command}` printed no JSON: {e}")))?;
        Ok((value, answer.warnings))
    }
}

/// A tool's answer: JSON text (a command's stdout, or an `evo_*` answer) and warnings.
#[derive(Debug, Default)]
pub struct Answer {
    pub text: String,
    pub warnings: Vec<String>,
}

impl Answer {
    pub fn of(value: &Value, warnings: Vec<String>) -> Answer {
        Answer { text: evodb_host::bridge::json(value), warnings }
    }
}

/// A tool's answer with no warnings.
fn answer(value: Value) -> Result<Answer, Failure> {
    Ok(Answer::of(&value, Vec::new()))
}

/// A tool refused: the message says what to pass instead.
fn usage(message: impl Into<String>) -> Failure {
    Failure::Usage(message.into())
}
