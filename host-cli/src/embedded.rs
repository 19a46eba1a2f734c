//! The component the `evodb` binary runs, built into it by `build.rs`: the component itself and
//! its machine code, precompiled for this architecture's baseline CPU with the runtime's engine
//! settings. No call compiles anything, nothing is cached on disk, and the binary carries no
//! compiler.
//!
//! The machine code is used where it lies in the binary's read-only data: its text section is
//! made executable in place (`InPlaceCode`) instead of being copied into fresh memory, which
//! cost ~1.5 ms a process (2.5 MB of page faults and copying) of a ~5 ms call.

use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};

use nix::sys::mman::{ProtFlags, mprotect};
use wasmtime::CustomCodeMemory;
use wasmtime::component::Component;

/// The `with-store` component.
pub const COMPONENT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/evodb-store.wasm"));
/// [`COMPONENT`] compiled by wasmtime at build time.
pub static MACHINE_CODE: &[u8] = &MACHINE_CODE_PAGES.0;
/// SHA-256 of [`COMPONENT`], hex.
pub const COMPONENT_SHA256: &str = env!("EVODB_COMPONENT_SHA256");
/// The wasmtime version that compiled [`MACHINE_CODE`] and runs it.
pub const WASMTIME_VERSION: &str = env!("EVODB_WASMTIME_VERSION");

/// The page size the in-place mapping relies on: the machine code starts on such a boundary,
/// and wasmtime aligns its text section to it inside the image.
const PAGE: usize = 4096;

#[repr(C, align(4096))]
struct PageAligned<T: ?Sized>(T);

static MACHINE_CODE_PAGES: &PageAligned<[u8]> =
    &PageAligned(*include_bytes!(concat!(env!("OUT_DIR"), "/evodb-store.cwasm")));

/// Whether a component of this process already uses [`MACHINE_CODE`] in place.
static IN_PLACE_TAKEN: AtomicBool = AtomicBool::new(false);

/// The component, from [`MACHINE_CODE`], on `engine` (`Host::load_embedded`): in place where
/// the engine maps code in place (`maps_code_in_place`: the system's pages are 4 KiB and the
/// engine carries `InPlaceCode`) for the first load of a process — the CLI's only one — and
/// copied for any later load (tests load it once per test), so two components never register,
/// publish or unpublish the same pages.
#[allow(unsafe_code)] // see SAFETY below
pub(crate) fn load(engine: &wasmtime::Engine, maps_code_in_place: bool) -> wasmtime::Result<Component> {
    let in_place = maps_code_in_place && !IN_PLACE_TAKEN.swap(true, Ordering::SeqCst);
    // SAFETY: MACHINE_CODE is what `Engine::precompile_component` produced in build.rs, with this
    // wasmtime and `engine_config`; wasmtime checks the version, the settings and the CPU features
    // again before using it, and refuses code that does not fit. In place, the memory is a
    // `static` (it lives as long as the process) that nothing writes (it is read-only data), and
    // only this one component uses it.
    let loaded = unsafe {
        match in_place {
            true => Component::deserialize_raw(engine, NonNull::from(MACHINE_CODE)),
            false => Component::deserialize(engine, MACHINE_CODE),
        }
    };
    loaded.map_err(|e| {
        e.context("the machine code built into evodb does not fit this machine; rebuild evodb here (cargo install --path host-cli)")
    })
}

/// Whether [`InPlaceCode`] can serve this system.
pub(crate) fn in_place_supported() -> bool {
    nix::unistd::sysconf(nix::unistd::SysconfVar::PAGE_SIZE).ok().flatten() == Some(PAGE as _)
}

/// wasmtime's hook for making code executable, done on the binary's own pages: read+execute to
/// publish, back to read-only afterwards. Never writable, so W^X holds.
#[derive(Debug)]
pub(crate) struct InPlaceCode;

impl InPlaceCode {
    #[allow(unsafe_code)] // see SAFETY below
    fn protect(ptr: *const u8, len: usize, prot: ProtFlags) -> wasmtime::Result<()> {
        let Some(addr) = NonNull::new(ptr.cast_mut().cast::<c_void>()) else { return Ok(()) };
        // SAFETY: wasmtime passes the page-aligned text section of code it loaded from
        // MACHINE_CODE (or from memory it mapped itself); changing between read-only and
        // read+execute touches no byte and no Rust reference's validity.
        unsafe { mprotect(addr, len, prot) }.map_err(|e| wasmtime::format_err!("mprotect: {e}"))
    }
}

impl CustomCodeMemory for InPlaceCode {
    fn required_alignment(&self) -> usize {
        PAGE
    }

    fn publish_executable(&self, ptr: *const u8, len: usize) -> wasmtime::Result<()> {
        Self::protect(ptr, len, ProtFlags::PROT_READ | ProtFlags::PROT_EXEC)
    }

    fn unpublish_executable(&self, ptr: *const u8, len: usize) -> wasmtime::Result<()> {
        Self::protect(ptr, len, ProtFlags::PROT_READ)
    }
}
