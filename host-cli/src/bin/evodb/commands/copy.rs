//! `evodb copy <src> <dst>`: a database moved between a directory and a PostgreSQL run, either
//! way. `database.json` is copied byte for byte (a directory copy stays readable by the seed's
//! own db-cli) and `history.ndjson` line for line. The source is validated first; the
//! destination must hold no database, and is written in one commit.

use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use clap::ArgMatches;

use evodb_host::Access;
use evodb_host::postgres::{Form, form};
use serde_json::json;

use crate::context::Context;
use crate::failure::Failure;
use crate::location::{Location, StoreArgs};
use crate::matches::required;
use crate::reply::Reply;

#[derive(Debug)]
pub struct Args {
    pub src: PathBuf,
    pub dst: PathBuf,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { src: required(m, "src"), dst: required(m, "dst") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        copy(ctx, self)
    }
}

fn copy(ctx: &Context, Args { src, dst }: Args) -> Result<Reply, Failure> {
    // `--run` names the PostgreSQL side, whichever it is.
    let sides = StoreArgs { store: None, env_store: None, env_run: None, ..ctx.store.clone() };
    let engine = ctx.engine()?;
    let (from, to) = (locate(&sides, &src)?, locate(&sides, &dst)?);
    if matches!((&from, &to), (Location::Postgres(_), Location::Postgres(_))) {
        return Err(Failure::Usage(
            "copy moves a run between a directory and PostgreSQL; to copy between two runs, copy through a directory"
                .into(),
        ));
    }
    let mut source = engine.open_location(from, Access::Read)?;
    let from_shown = source.shown().to_string();
    if !source.holds_database() {
        return Err(Failure::NotFound(format!(
            "no database at {from_shown}: nothing to copy; check the path or --run"
        )));
    }
    let problems = source.validate()?;
    if let Some(first) = problems.first() {
        return Err(Failure::BadInput(format!(
            "{from_shown} does not validate ({first}); `evodb validate` lists every problem; fix them before copying"
        )));
    }
    let database = source.database_bytes()?;
    let history = source.history()?;
    drop(source);

    let mut target = engine.open_location_to_create(to)?;
    let to_shown = target.shown().to_string();
    if target.holds_database() || !target.history()?.is_empty() {
        return Err(Failure::BadInput(format!(
            "{to_shown} already holds a database; copy into an empty directory or a new --run"
        )));
    }
    target.commit_bytes(&database, history.as_bytes())?;
    let events = history.lines().count();
    let (from, to) = (plain(&from_shown), plain(&to_shown));
    let printed = json!({"copied": true, "from": from, "to": to, "bytes": database.len(), "events": events});
    Ok(Reply::from(printed.to_string()))
}

/// A directory's shown form without the backticks messages quote it in.
fn plain(shown: &str) -> &str {
    shown.strip_prefix('`').and_then(|s| s.strip_suffix('`')).unwrap_or(shown)
}

/// A side: a run when it is a URL (any `scheme://` is checked, and refused unless PostgreSQL's),
/// a directory otherwise (`--run` names the other side).
fn locate(sides: &StoreArgs, db: &Path) -> Result<Location, Failure> {
    match form(db.as_os_str().as_bytes(), "<dbPath>") {
        Ok(Form::Directory) => Ok(Location::Directory(db.to_path_buf())),
        _ => sides.locate(db),
    }
}
