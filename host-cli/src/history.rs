//! `history.ndjson`, the event log, as the host guards it: a writer killed mid-append leaves a
//! torn last line, which the next writer removes (under the lock, before the component appends)
//! so every acknowledged event stays its own valid line; `validate` reports torn or non-JSON
//! lines. The component only ever appends whole lines.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

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
    let mut file = OpenOptions::new().read(true).write(true).open(&path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
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
