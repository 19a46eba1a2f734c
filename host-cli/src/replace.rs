//! Replacing a file whole in a directory someone else may also write (the user's repository, a
//! shared run directory): the new contents go to a temporary sibling created new — `O_EXCL`,
//! an unpredictable name, never a path a planted symlink could redirect — then synced and renamed
//! over the file. A rename replaces a symlink at the destination instead of following it.

use std::fs::{self, File, Permissions};
use std::io::{self, Write};
use std::path::Path;

/// Replaces `path` with `contents`, giving it `permissions` (else the temporary file's 0600).
pub fn replace_file(path: &Path, contents: &[u8], permissions: Option<Permissions>) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(path.file_name().unwrap_or_default());
    prefix.push(".evodb-");
    let mut temp = tempfile::Builder::new().prefix(&prefix).suffix(".tmp").tempfile_in(dir)?;
    temp.write_all(contents)?;
    if let Some(permissions) = permissions {
        temp.as_file().set_permissions(permissions)?;
    }
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    sync_dir(path);
    Ok(())
}

/// Makes a rename in `file`'s directory durable; best effort (some file systems refuse).
pub fn sync_dir(file: &Path) {
    if let Some(dir) = file.parent()
        && let Ok(dir) = File::open(if dir.as_os_str().is_empty() { Path::new(".") } else { dir })
    {
        let _ = dir.sync_all();
    }
}

/// Metadata of `path` itself, refusing anything but a regular file (a symlink, a FIFO, a
/// directory): for files evodb wrote itself and is about to trust.
pub fn own_regular_file(path: &Path) -> io::Result<fs::Metadata> {
    let meta = fs::symlink_metadata(path)?;
    if meta.file_type().is_file() {
        return Ok(meta);
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "`{}` is {}, not a file evodb wrote; remove it (evodb never follows it) and run again",
            path.display(),
            crate::describe_file_type(meta.file_type())
        ),
    ))
}
