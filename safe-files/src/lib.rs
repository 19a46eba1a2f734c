//! The rule every file evodb opens or replaces follows, in directories someone else may also
//! write (the user's repository, a shared run directory):
//! - [`open_regular`]: a file is opened only if it is a regular file — never through a symlink
//!   (a planted one could point anywhere), never blocking on a FIFO;
//! - [`replace_file`]: new contents go to a temporary sibling created new — `O_EXCL`, an
//!   unpredictable name, never a path a planted symlink could redirect — then synced and renamed
//!   over the file. A rename replaces a symlink at the destination instead of following it.
//!
//! Used by the database directory store (`evodb-host`) and by trials (`evodb-trial`).

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, ErrorKind, Write};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

use nix::fcntl::OFlag;

/// Opens `path` only if it is a regular file (or missing, for `create`): never through a
/// symlink, and without blocking on a FIFO. A refused file is an `InvalidData` error saying what
/// it is ("it is a FIFO, not a regular file").
pub fn open_regular(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    let file = options.custom_flags((OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK).bits()).open(path).map_err(|e| {
        if e.raw_os_error() == Some(nix::errno::Errno::ELOOP as i32) {
            io::Error::new(ErrorKind::InvalidData, "it is a symbolic link, not a regular file")
        } else {
            e
        }
    })?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        let what = format!("it is {}, not a regular file", describe_file_type(kind));
        return Err(io::Error::new(ErrorKind::InvalidData, what));
    }
    Ok(file)
}

/// "a FIFO", "a directory", … for a message about something that is not a regular file.
pub fn describe_file_type(kind: fs::FileType) -> &'static str {
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        "a device"
    }
}

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
            describe_file_type(meta.file_type())
        ),
    ))
}
