//! `history.ndjson`, the event log, as the host guards it: a writer killed mid-append leaves a
//! torn last line, which the next writer removes (under the lock, before the component appends)
//! so every acknowledged event stays its own valid line; `validate` reports torn or non-JSON
//! lines. The component only ever appends whole lines.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read, Seek, SeekFrom};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use nix::fcntl::OFlag;

use crate::error::HostError;

pub const HISTORY_FILE: &str = "history.ndjson";

/// How far back a torn tail is looked for at a time.
const CHUNK: u64 = 64 * 1024;

/// Removes a torn last line (bytes after the last newline) and says so; `None` when the history
/// is missing, empty, or ends in a newline. A symlinked history is left to the component, which
/// refuses it.
pub fn repair_torn_tail(dir: &Path) -> Result<Option<String>, String> {
    let path = dir.join(HISTORY_FILE);
    let io = |e: std::io::Error| format!("cannot repair `{}`: {e}", path.display());
    match fs::symlink_metadata(&path) {
        Ok(meta) if meta.is_file() && meta.len() > 0 => {}
        _ => return Ok(None),
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags((OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK).bits())
        .open(&path)
        .map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Ok(None); // swapped since it was looked at: left to the component, which refuses it
    }
    let len = meta.len();
    // Every write checks this: one byte when the history is whole, the scan only when it is torn.
    let mut last = [0u8];
    file.seek(SeekFrom::Start(len - 1)).and_then(|_| file.read_exact(&mut last)).map_err(io)?;
    if last[0] == b'\n' {
        return Ok(None);
    }
    let keep = last_newline_end(&mut file, len).map_err(io)?;
    file.set_len(keep).map_err(io)?;
    file.sync_all().map_err(io)?;
    Ok(Some(format!(
        "{HISTORY_FILE} ended in a torn line ({} bytes, from an interrupted write); removed it before appending",
        len - keep
    )))
}

/// The offset just after the file's last newline (0 when it has none).
fn last_newline_end(file: &mut File, len: u64) -> std::io::Result<u64> {
    let mut end = len;
    let mut buffer = vec![0; CHUNK as usize];
    while end > 0 {
        let start = end.saturating_sub(CHUNK);
        let chunk = &mut buffer[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// `evodb history [--tail N]` on a directory, read by the host: the last `tail` lines (all of
/// them without), as `str::lines` splits them, joined by newlines. Only the tail is read, from
/// the end backwards, so `--tail 1` on a history of any size reads a few kilobytes; what is read
/// may not exceed `cap` bytes (the memory cap every command keeps). A history that is missing
/// is empty; one that is not a regular file is refused, as every command refuses it.
pub fn lines(dir: Option<&Path>, tail: Option<usize>, cap: u64) -> Result<String, HostError> {
    let Some(dir) = dir else { return Ok(String::new()) };
    let path = dir.join(HISTORY_FILE);
    let io = |e: std::io::Error| {
        HostError::Io(format!("cannot read `{}`: {e}; check the path and its permissions", path.display()))
    };
    let opened = OpenOptions::new().read(true).custom_flags((OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK).bits()).open(&path);
    let mut file = match opened {
        Ok(file) => file,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(String::new()),
        Err(e) => {
            return Err(match fs::symlink_metadata(&path) {
                Ok(meta) if !meta.is_file() => not_a_file(&path, meta.file_type()),
                _ => io(e),
            });
        }
    };
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(not_a_file(&path, meta.file_type()));
    }
    let len = meta.len();
    let too_big = || HostError::MemoryCap(usize::try_from(cap).unwrap_or(usize::MAX));
    if tail == Some(0) {
        return Ok(String::new());
    }
    let start = match tail {
        None => 0,
        Some(n) => tail_start(&mut file, len, n, cap).map_err(io)?.ok_or_else(too_big)?,
    };
    if len - start > cap {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity((len - start) as usize);
    file.seek(SeekFrom::Start(start)).map_err(io)?;
    file.take(len - start).read_to_end(&mut bytes).map_err(io)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        HostError::Database(crate::bindings::population::Error::CorruptDatabase(format!(
            "{HISTORY_FILE} is not UTF-8 text ({e}); restore it from a backup"
        )))
    })?;
    let lines: Vec<&str> = text.lines().collect();
    let first = tail.map_or(0, |n| lines.len().saturating_sub(n));
    Ok(lines[first..].join("\n"))
}

/// Where the last `n` lines of a file of `len` bytes begin (a line starts after a newline; a
/// final newline ends the last line); `None` when more than `cap` bytes would have to be read.
fn tail_start(file: &mut File, len: u64, n: usize, cap: u64) -> std::io::Result<Option<u64>> {
    let mut end = len;
    let mut buffer = vec![0; CHUNK as usize];
    let mut seen = 0usize;
    while end > 0 {
        if len - end > cap {
            return Ok(None);
        }
        let start = end.saturating_sub(CHUNK);
        let chunk = &mut buffer[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        for (i, &byte) in chunk.iter().enumerate().rev() {
            if byte != b'\n' {
                continue;
            }
            let at = start + i as u64;
            // The final newline ends the last line rather than starting an empty one.
            if at + 1 == len {
                continue;
            }
            seen += 1;
            if seen == n {
                return Ok(Some(at + 1));
            }
        }
        end = start;
    }
    Ok(Some(0))
}

fn not_a_file(path: &Path, kind: fs::FileType) -> HostError {
    HostError::Io(format!(
        "cannot read `{}`: it is {}, not a regular file; move it away ({HISTORY_FILE} must be a file)",
        path.display(),
        evodb_safe_files::describe_file_type(kind)
    ))
}

/// What `validate` adds about the history: each line that is torn or not JSON.
pub fn problems(dir: &Path) -> Result<Vec<String>, String> {
    let path = dir.join(HISTORY_FILE);
    if !fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
        return Ok(Vec::new());
    }
    let bytes = fs::read(&path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let torn_tail = !bytes.is_empty() && !bytes.ends_with(b"\n");
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let count = lines.len() - usize::from(!torn_tail); // a final newline ends the last line
    let mut problems = Vec::new();
    for (i, line) in lines[..count].iter().enumerate() {
        if serde_json::from_slice::<serde_json::Value>(line).is_err() {
            let fix = if torn_tail && i + 1 == count {
                "the next write removes a torn last line"
            } else {
                "remove the line, or restore the file from a backup"
            };
            problems.push(format!("{HISTORY_FILE} line {} is torn or not JSON (an interrupted write?); {fix}", i + 1));
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The last `n` lines as reading the whole file would give them.
    fn whole(text: &str, n: Option<usize>) -> String {
        let lines: Vec<&str> = text.lines().collect();
        lines[n.map_or(0, |n| lines.len().saturating_sub(n))..].join("\n")
    }

    #[test]
    fn the_tail_read_backwards_is_the_tail_of_the_whole() {
        let dir = tempfile::tempdir().unwrap();
        let long = format!("{}\n", "x".repeat(200_000));
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\nb",
            "a\nb\n",
            "a\n\nb\n\n",
            "a\r\nb\r\n",
            long.as_str(),
            &format!("a\n{long}b\n"),
        ] {
            std::fs::write(dir.path().join(HISTORY_FILE), text).unwrap();
            for n in [None, Some(0), Some(1), Some(2), Some(3), Some(10)] {
                assert_eq!(
                    lines(Some(dir.path()), n, 1 << 30).unwrap(),
                    whole(text, n),
                    "{:?} {n:?}",
                    &text[..text.len().min(20)]
                );
            }
        }
    }

    #[test]
    fn a_tail_over_the_cap_is_the_memory_cap() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(HISTORY_FILE), format!("{}\n", "x".repeat(300_000))).unwrap();
        assert!(matches!(lines(Some(dir.path()), Some(1), 100_000), Err(HostError::MemoryCap(_))));
        assert!(matches!(lines(Some(dir.path()), None, 100_000), Err(HostError::MemoryCap(_))));
        assert_eq!(lines(None, Some(1), 0).unwrap(), "");
    }
}
