//! Reading what a flag names: a `*File` flag's text, a duration, the clock.

use std::fs;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::failure::Failure;

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

/// `--timeoutSec` as a duration: positive and finite.
pub fn timeout_of(seconds: f64) -> Result<Duration, Failure> {
    Duration::try_from_secs_f64(seconds).ok().filter(|t| !t.is_zero()).ok_or_else(|| {
        Failure::Usage(format!(
            "--timeoutSec {seconds} is not a positive number of seconds; pass e.g. --timeoutSec 300"
        ))
    })
}

/// Seconds since the epoch with millisecond precision, as the seed's `Date.now() / 1000`: the
/// time an `add` is recorded at (the core takes it as an input and keeps it in the event).
pub fn now() -> f64 {
    let millis = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis());
    millis as f64 / 1000.0
}
