//! Writing the skill's embedded files into a directory the user names (`skill install`,
//! `strategy init`): every path checked before the first write, no write through a symlink.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use include_dir::{Dir, DirEntry, include_dir};

use crate::failure::Failure;

/// The skill as it ships: `SKILL.md` and its folders, each embedded on its own so that the
/// skill's tests stay out of the binary. (`skill/tests/install.test.mjs` fails when a file the
/// skill ships is missing here.)
static SKILL_MD: &[u8] = include_bytes!("../../../../skill/SKILL.md");
static SKILL_DIRS: [(&str, Dir); 4] = [
    ("example", include_dir!("$CARGO_MANIFEST_DIR/../skill/example")),
    ("references", include_dir!("$CARGO_MANIFEST_DIR/../skill/references")),
    ("scripts", include_dir!("$CARGO_MANIFEST_DIR/../skill/scripts")),
    ("strategies", include_dir!("$CARGO_MANIFEST_DIR/../skill/strategies")),
];

/// The skill's files, relative paths in order; caches left by a local run stay behind.
pub fn skill_files() -> Vec<(PathBuf, &'static [u8])> {
    fn walk(root: &Path, dir: &'static Dir<'static>, files: &mut Vec<(PathBuf, &'static [u8])>) {
        for entry in dir.entries() {
            let name = entry.path().file_name().and_then(|n| n.to_str()).unwrap_or("");
            match entry {
                DirEntry::Dir(sub) if !matches!(name, "__pycache__" | "node_modules") => walk(root, sub, files),
                DirEntry::File(file) if !name.ends_with(".pyc") => {
                    files.push((root.join(file.path()), file.contents()));
                }
                _ => {}
            }
        }
    }
    let mut files = vec![(PathBuf::from("SKILL.md"), SKILL_MD)];
    for (name, dir) in &SKILL_DIRS {
        walk(Path::new(name), dir, &mut files);
    }
    files.sort_by(|(a, _), (b, _)| a.cmp(b));
    files
}

/// An existing, non-empty directory needs --force: it may be another skill, or the user's edits.
/// `what` names what is written there (`the skill`, `the playbook`).
pub fn refuse_to_clobber(dir: &Path, force: bool, what: &str) -> Result<(), Failure> {
    match fs::symlink_metadata(dir) {
        Err(_) => Ok(()),
        Ok(meta) if !meta.is_dir() => {
            Err(Failure::Io(format!("`{}` exists and is not a directory; pass a directory for {what}", dir.display())))
        }
        Ok(_) if force => Ok(()),
        Ok(_) => match fs::read_dir(dir).map(|mut entries| entries.next().is_none()) {
            Ok(true) => Ok(()),
            Ok(false) => Err(Failure::Usage(format!(
                "`{}` is not empty; pass --force to replace {what}'s files there (other files are kept)",
                dir.display()
            ))),
            Err(e) => Err(Failure::Io(format!("cannot read `{}`: {e}", dir.display()))),
        },
    }
}

/// What [`write_file`] would refuse, checked without writing: a symlinked directory on the way,
/// or a directory where the file goes.
pub fn check_writable(root: &Path, relative: &Path) -> Result<(), Failure> {
    let path = root.join(relative);
    if let Some(parent) = path.parent() {
        refuse_symlinked_dirs(root, parent)?;
    }
    if fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
        return Err(Failure::Io(format!(
            "cannot write `{}`: a directory is in the way; remove it or pick another directory",
            path.display()
        )));
    }
    Ok(())
}

/// Creates the file afresh: an existing file (or a symlink in its place) is removed first, so a
/// write never follows a link out of the skill directory.
pub fn write_file(root: &Path, relative: &Path, contents: &[u8]) -> Result<(), Failure> {
    let path = root.join(relative);
    let io = |what: &str, e: std::io::Error| Failure::Io(format!("cannot {what} `{}`: {e}", path.display()));
    if let Some(parent) = path.parent() {
        refuse_symlinked_dirs(root, parent)?;
        fs::create_dir_all(parent).map_err(|e| io("create the directory for", e))?;
    }
    match fs::symlink_metadata(&path) {
        Ok(meta) if meta.is_dir() => return Err(io("write", std::io::Error::other("a directory is in the way"))),
        Ok(_) => fs::remove_file(&path).map_err(|e| io("replace", e))?,
        Err(_) => {}
    }
    let mut file = OpenOptions::new().write(true).create_new(true).open(&path).map_err(|e| io("create", e))?;
    file.write_all(contents).map_err(|e| io("write", e))
}

/// A directory inside the skill that is a symlink would send the write elsewhere.
fn refuse_symlinked_dirs(root: &Path, dir: &Path) -> Result<(), Failure> {
    let mut current = root.to_path_buf();
    for part in dir.strip_prefix(root).unwrap_or(Path::new("")).components() {
        current.push(part);
        if fs::symlink_metadata(&current).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(Failure::Io(format!(
                "`{}` is a symbolic link; files are written only inside `{}` — remove the link or pick another directory",
                current.display(),
                root.display()
            )));
        }
    }
    Ok(())
}
