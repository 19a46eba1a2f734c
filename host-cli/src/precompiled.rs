//! The component as machine code, compiled once and cached on disk.
//!
//! JIT-compiling the component costs ~100 ms per process; loading precompiled code costs a few.
//! A cache entry is keyed by the component's SHA-256 and wasmtime's compatibility hash (its
//! version and every engine setting that shapes the code), so a new evodb, a new wasmtime or a
//! different engine config never reads an old entry. Each entry is wasmtime's machine code
//! followed by a trailer (a CRC-32 of the code, then a magic tag); the checksum is verified
//! before wasmtime sees the file, so a torn or corrupted entry is compiled afresh and replaced,
//! never loaded. The code stays first so wasmtime can map the file instead of copying it
//! (~0.3 ms instead of ~1.5 ms; ELF readers ignore the trailing bytes). CRC-32 catches truncation
//! and flipped bits at ~10 GB/s; someone able to write the cache could replace the binary as
//! well, so a cryptographic hash would buy nothing here.

use std::fs;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::component::Component;

use crate::runtime::Host;

const MAGIC: &[u8; 12] = b"evodb-cwasm2";
const TRAILER: usize = 4 + MAGIC.len();

/// How the component was obtained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Loaded from a valid cache entry.
    Cached(PathBuf),
    /// Compiled now; saved to the cache when the path is given (a missing or unwritable cache
    /// directory only costs speed).
    Compiled(Option<PathBuf>),
    /// Compiled in-process, cache not consulted.
    Jit,
}

/// The cache directory: `$EVODB_CACHE_DIR`, else `$XDG_CACHE_HOME/evodb`, else
/// `$HOME/.cache/evodb`, else `<temp>/evodb-cache`.
pub fn default_cache_dir() -> PathBuf {
    let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    env("EVODB_CACHE_DIR")
        .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("evodb")))
        .or_else(|| env("HOME").map(|d| d.join(".cache/evodb")))
        .unwrap_or_else(|| std::env::temp_dir().join("evodb-cache"))
}

/// Where the entry for `component_sha256` compiled by `host`'s engine lives.
pub fn entry_path(host: &Host, cache_dir: &Path, component_sha256: &str) -> PathBuf {
    let mut key = Sha256Hasher(Sha256::new());
    component_sha256.hash(&mut key);
    host.engine().precompile_compatibility_hash().hash(&mut key);
    let key: String = key.0.finalize()[..12].iter().map(|b| format!("{b:02x}")).collect();
    cache_dir.join(format!("evodb-store-{key}.cwasm"))
}

/// The component, from the cache when a valid entry exists, else compiled (and cached).
pub fn load(
    host: &Host,
    bytes: &[u8],
    component_sha256: &str,
    cache_dir: Option<&Path>,
) -> wasmtime::Result<(Component, Origin)> {
    let Some(cache_dir) = cache_dir else {
        return Ok((host.compile(bytes)?, Origin::Jit));
    };
    let path = entry_path(host, cache_dir, component_sha256);
    if let Some(component) = read_entry(host, &path) {
        return Ok((component, Origin::Cached(path)));
    }
    let code = host.engine().precompile_component(bytes)?;
    // SAFETY: `code` was produced just now by this engine.
    let component = unsafe { Component::deserialize(host.engine(), &code)? };
    let saved = write_entry(cache_dir, &path, &code).then_some(path);
    Ok((component, Origin::Compiled(saved)))
}

/// A valid entry's component; `None` for a missing, torn, corrupt or incompatible one.
fn read_entry(host: &Host, path: &Path) -> Option<Component> {
    let file = fs::read(path).ok()?;
    let (code, trailer) = file.split_at(file.len().checked_sub(TRAILER)?);
    let (checksum, magic) = trailer.split_at(4);
    if magic != MAGIC || crc32fast::hash(code).to_le_bytes() != checksum {
        return None;
    }
    // SAFETY: the file holds exactly what `write_entry` wrote after `precompile_component` (the
    // checksum matches; entries are replaced by rename, never rewritten in place), and wasmtime
    // itself rejects code from another version or config.
    unsafe { Component::deserialize_file(host.engine(), path) }.ok()
}

/// Writes the entry atomically (temp file, then rename), so parallel first runs never see each
/// other's half-written entry. Returns whether it was saved.
fn write_entry(cache_dir: &Path, path: &Path, code: &[u8]) -> bool {
    let temp = path.with_extension(format!("tmp{}", std::process::id()));
    let write = || -> std::io::Result<()> {
        fs::create_dir_all(cache_dir)?;
        let mut file = fs::File::create(&temp)?;
        file.write_all(code)?;
        file.write_all(&crc32fast::hash(code).to_le_bytes())?;
        file.write_all(MAGIC)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    };
    let saved = write().is_ok();
    if !saved {
        let _ = fs::remove_file(&temp);
    }
    saved
}

/// Feeds `Hash` impls into SHA-256, so the key is stable across processes and Rust versions.
struct Sha256Hasher(Sha256);

impl Hasher for Sha256Hasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    fn finish(&self) -> u64 {
        unreachable!("only the digest is used")
    }
}
